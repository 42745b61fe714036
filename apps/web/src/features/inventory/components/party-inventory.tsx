import type { Party } from '@haversack/contracts';
import { Button, Center, Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { Spinner } from '../../../components/loading';
import { FeatureUpgradePrompt } from '../../../components/upgrade-prompt';
import { partyCharactersQuery } from '../../characters/api/characters-api';
import { type ContainerOwner, partyCollaborationQuery } from '../api/inventory-api';
import { useOwnerContainers } from '../hooks/use-owner-containers';
import { secondPanel } from '../workspace-types';
import { InventoryWorkspace } from './inventory-workspace';

export const partyInventoryUnavailable =
  'Party inventory not available. You must have a character in the party to access inventory.';

/**
 * Why the stash is out of reach, and both ways in: a plan of one's own, or a sponsor in this party (spec/01
 * "Patronage grants a beneficiary a tier's features within one party"; any member whose own plan has
 * patronage may sponsor, the GM paying for the table being the usual case, decisions "Patronage").
 */
export const partyCollaborationMissing =
  "You can look at the party's containers and use your own character's, but changing the party's needs a plan with party collaboration, or a sponsor: your Game Master, or any member whose plan can sponsor players, can sponsor you in this party.";

/**
 * spec/02 §2 party Inventory tab: for users with a character in the party, and for its GM even without one
 * (the GM may act on every container of the party, DESIGN §4 Who may act, and hands the players their
 * starting items from the stash); the workspace opens with a container on the left. The spec puts the global marketplace on the right; since issue 12 the right
 * panel opens on the next container to move things into (`secondPanel`), the Marketplace one tab away.
 */
export function PartyInventory({ party }: { party: Pick<Party, 'id' | 'name' | 'is_gm'> }) {
  const characters = useQuery(partyCharactersQuery(party.id));
  const all = characters.data?.characters ?? [];
  const mine = all.filter((c) => c.is_owner);
  // The GM may act on every container of the party (DESIGN §4 Who may act): every character's are
  // offered, the GM's own first, so that a move between two players' characters needs no other page.
  const reachable = party.is_gm ? [...mine, ...all.filter((c) => !c.is_owner)] : mine;
  const available = mine.length > 0 || (party.is_gm && characters.data !== undefined);
  const owners: ContainerOwner[] = available
    ? [{ type: 'party', id: party.id }, ...reachable.map((c) => ({ type: 'character' as const, id: c.id }))]
    : [];
  const sources = useOwnerContainers(owners);
  // Asked of every member, a character or not: a new player's first look at the stash should already say
  // why it is view only, before they make a character and find out by being refused.
  const collaboration = useQuery({ ...partyCollaborationQuery(party.id), enabled: characters.isSuccess });
  const collaborationPrompt =
    collaboration.data === false ? (
      <FeatureUpgradePrompt feature="party_collaboration">{partyCollaborationMissing}</FeatureUpgradePrompt>
    ) : null;

  if (characters.isPending || (owners.length > 0 && sources.isPending)) {
    return (
      <Center py="xl">
        <Spinner label="Loading party inventory" />
      </Center>
    );
  }
  // A failure is not "no character": it says so and asks again, as the party's other tabs do.
  if (characters.isError && !characters.data) {
    return (
      <ErrorPanel
        title="Failed to load party inventory"
        message="Your characters in this party could not be loaded."
        onRetry={() => void characters.refetch()}
      />
    );
  }
  if (sources.isError) {
    return (
      <ErrorPanel
        title="Failed to load party inventory"
        message="The party's containers could not be loaded."
        onRetry={() => void sources.refetch()}
      />
    );
  }
  if (!available) {
    return (
      <Stack gap="md">
        <Paper withBorder p="lg" data-testid="party-inventory-unavailable">
          <Stack gap="sm" align="center">
            <Text ta="center">{partyInventoryUnavailable}</Text>
            {/* The way forward (issue 12): a member without a character here makes one for this party. */}
            {characters.isSuccess ? (
              <Button component={Link} to={`/characters/new?party_id=${party.id}`}>
                Create a character in this party
              </Button>
            ) : null}
          </Stack>
        </Paper>
        {collaborationPrompt}
      </Stack>
    );
  }
  const stash = sources.containers.find((c) => c.owner.type === 'party');
  const first = stash ?? sources.containers[0] ?? null;
  return (
    <Stack gap="md">
      {collaborationPrompt}
      <InventoryWorkspace
        owner={party.name}
        titleOrder={2}
        containers={sources.containers}
        initialLeft={{ tab: 'container', containerId: first?.id ?? null }}
        initialRight={secondPanel(sources.containers, first?.id ?? null)}
        initialView="dual"
        inParty
        partyId={party.id}
        // The party page's header says it already, above the tabs.
        showsLiveStatus={false}
        // Without party collaboration the server refuses a party container: the banner above says so.
        createOwner={collaboration.data === false ? false : { type: 'party', id: party.id }}
        // The party's own page adds new items to the party's container, not to whichever player's backpack
        // the other panel shows; without party collaboration the stash is not theirs to fill.
        marketTargetId={collaboration.data === false ? null : (stash?.id ?? null)}
      />
    </Stack>
  );
}
