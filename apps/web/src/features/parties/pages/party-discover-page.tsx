import { gameSystemOptions } from '@haversack/contracts';
import {
  Badge,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { publicPartiesQuery } from '../api/parties-api';
import { PartyCardSkeletons } from '../components/party-card-skeletons';
import { PartyFacts } from '../components/party-facts';

/** spec/02 §2 Discover (/parties/discover). */
export function PartyDiscoverPage() {
  usePageTitle('Discover Parties');
  const [search, setSearch] = useState('');
  const [gameSystem, setGameSystem] = useState<string | null>(null);
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const query = useQuery({
    ...publicPartiesQuery({ search: debouncedSearch, gameSystem: gameSystem ?? '' }),
    placeholderData: keepPreviousData,
  });

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={4}>
          <Title order={1}>Discover Parties</Title>
          <Text c="dimmed">Find a public party looking for players.</Text>
        </Stack>
        <Button component={Link} to="/parties/join">
          Join with Code
        </Button>
      </Group>

      <Group gap="md" align="flex-end" wrap="wrap">
        <TextInput
          label="Search public parties"
          placeholder="Name, description, game system or setting"
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={{ base: '100%', sm: 380 }}
        />
        <Select
          label="Game system"
          placeholder="All game systems"
          data={[...gameSystemOptions]}
          value={gameSystem}
          onChange={setGameSystem}
          clearable
          w={{ base: '100%', sm: 220 }}
        />
      </Group>

      <RefreshFailedNote query={query} />
      {query.isPending ? (
        <PartyCardSkeletons />
      ) : failedWithNothingToShow(query) ? (
        <ErrorPanel
          title="Failed to Load Parties"
          message="Unable to fetch public parties."
          onRetry={() => void query.refetch()}
        />
      ) : query.data.parties.length === 0 ? (
        <EmptyState
          title="No Public Parties Found"
          message="Try another search or game system, or join a party with a code from its Game Master."
        />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="discover-grid">
          {query.data.parties.map((party) => (
            <UnstyledButton
              key={party.id}
              component={Link}
              to={`/parties/join?preview=${party.id}`}
              aria-label={`${party.name}: preview and join`}
              style={{ display: 'block' }}
            >
              <Card withBorder padding="lg" h="100%">
                <Stack gap="xs">
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
                      {party.name}
                    </Title>
                    {party.is_member ? (
                      <Badge variant="light" color="violet">
                        Member
                      </Badge>
                    ) : null}
                  </Group>
                  <Text size="sm" c="dimmed">
                    Game Master: {party.gm_name ?? 'Unknown'}
                  </Text>
                  <Text size="sm" lineClamp={2}>
                    {party.description || 'No description.'}
                  </Text>
                  <PartyFacts
                    gameSystem={party.game_system}
                    setting={party.setting}
                    memberCount={party.member_count}
                  />
                </Stack>
              </Card>
            </UnstyledButton>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
