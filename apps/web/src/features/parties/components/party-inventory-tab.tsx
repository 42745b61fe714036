import { type Container, formatStackWorth, type Party } from '@haversack/contracts';
import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { CapacityBar } from '../../../components/capacity-bar';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { formatCount } from '../../../lib/format';
import { isApiError } from '../../../lib/http-client';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { partyCharactersQuery } from '../../characters/api/characters-api';
import { ownerContainersQuery } from '../../inventory/api/inventory-api';
import { PartyInventory } from '../../inventory/components/party-inventory';
import { PartyCardSkeletons } from './party-card-skeletons';

/**
 * spec/02 §2 party Inventory tab. With a character of mine in the party, or as its GM, it is the inventory
 * workspace (the stash on one side; for the GM every character's containers too, DESIGN §4 Who may act).
 * A player without a character keeps the spec's notice and its way forward, and the party's containers are
 * listed under them: every member may read them (inventory.policy containerAccess).
 */
export function PartyInventoryTab({ party }: { party: Pick<Party, 'id' | 'name' | 'is_gm'> }) {
  // The same query (and cache entry) PartyInventory reads, so this asks the server nothing more.
  const characters = useQuery(partyCharactersQuery(party.id));
  const hasCharacter = (characters.data?.characters ?? []).some((c) => c.is_owner);
  return (
    <Stack gap="md">
      <PartyInventory party={party} />
      {characters.isSuccess && !hasCharacter && !party.is_gm ? (
        <PartyContainersSection partyId={party.id} />
      ) : null}
    </Stack>
  );
}

/** A list the user may not read answers 403 or 404: then there is nothing to offer, not an error. */
const unreadable = (error: unknown) => isApiError(error) && (error.status === 403 || error.status === 404);

function PartyContainersSection({ partyId }: { partyId: string }) {
  const headingId = useId();
  const containers = useQuery(ownerContainersQuery({ type: 'party', id: partyId }));
  if (containers.isError && unreadable(containers.error)) return null;
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId} data-testid="party-containers">
      <Stack gap={2}>
        <Title order={2} size="h4" id={headingId}>
          Party containers
        </Title>
        <Text size="sm" c="dimmed">
          Without a character in this party you can still open each of its containers on its own page.
        </Text>
      </Stack>
      <RefreshFailedNote query={containers} />
      {containers.isPending ? (
        <PartyCardSkeletons count={1} />
      ) : failedWithNothingToShow(containers) ? (
        <ErrorPanel
          title="Error loading the party's containers"
          message="The party's containers could not be loaded."
          onRetry={() => void containers.refetch()}
        />
      ) : containers.data.length === 0 ? (
        // A party made before every party had a stash: its GM makes one in the workspace, which they have.
        <Text size="sm">This party has no containers yet.</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {containers.data.map((container) => (
            <PartyContainerCard key={container.id} container={container} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

const itemsLabel = (count: number) => (count === 1 ? '1 item' : `${formatCount(count)} items`);

function PartyContainerCard({ container }: { container: Container }) {
  return (
    <Card withBorder padding="lg" data-testid="party-container-card">
      <Stack gap="sm" h="100%">
        <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
          <Title order={3} size="h5" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {container.name}
          </Title>
          {container.can_act ? null : (
            <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
              View only
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed" data-testid="party-container-facts">
          {/* To the copper, as the item tiles and the party's wealth table say a worth: 9 sp is not "0 gp". */}
          {itemsLabel(container.items_count)} · {formatStackWorth(container.total_value_cp)}
        </Text>
        {/* The same weight and slot meters the workspace shows above a container's items. */}
        <CapacityBar capacity={container.capacity} />
        <Group mt="auto" pt="xs">
          {/* A long container name wraps inside the button rather than pushing past a phone's edge. */}
          <Button component={Link} to={`/containers/${container.id}`} variant="light" size="sm" maw="100%">
            Open {container.name}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
