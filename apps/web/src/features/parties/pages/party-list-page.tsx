import type { Party } from '@haversack/contracts';
import { Button, Group, Pagination, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBoundary } from '../../../components/error-boundary';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { useStayWithinPages } from '../../../lib/last-page';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { partiesListQuery } from '../api/parties-api';
import { DeletePartyDialog } from '../components/delete-party-dialog';
import { PartyCard } from '../components/party-card';
import { PartyCardSkeletons } from '../components/party-card-skeletons';

/** spec/02 §2 Party list (/parties). */
export function PartyListPage() {
  usePageTitle('My Parties');
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [showArchived, setShowArchived] = useState(false);
  const [ownedOnly, setOwnedOnly] = useState(false);
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [toDelete, setToDelete] = useState<Party | null>(null);

  const filtersActive = debouncedSearch.trim() !== '' || showArchived || ownedOnly;
  const query = useQuery({
    ...partiesListQuery({ page, search: debouncedSearch, showArchived, ownedOnly }),
    placeholderData: keepPreviousData,
  });
  const totalPages = query.data?.meta.total_pages ?? 1;
  // A page emptied by a deletion (its last party) gives way to the last page left.
  useStayWithinPages(page, query.data?.meta, query.isSuccess && !query.isPlaceholderData, setPage);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={4}>
          <Title order={1}>My Parties</Title>
          <Text c="dimmed">Manage your parties and join others.</Text>
        </Stack>
        <Group gap="sm">
          <Button component={Link} to="/parties/discover" variant="default">
            Discover Parties
          </Button>
          <Button component={Link} to="/parties/join" variant="light">
            Join Party
          </Button>
          <Button component={Link} to="/parties/new">
            Create Party
          </Button>
        </Group>
      </Group>

      <Group gap="lg" align="center" wrap="wrap">
        <TextInput
          label="Search parties"
          placeholder="Name, description, game system or setting"
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          w={{ base: '100%', sm: 380 }}
        />
        <Switch
          label="Show Archived"
          checked={showArchived}
          onChange={(event) => {
            setShowArchived(event.currentTarget.checked);
            setPage(1);
          }}
          mt={{ base: 0, sm: 'lg' }}
        />
        <Switch
          label="My Parties Only"
          checked={ownedOnly}
          onChange={(event) => {
            setOwnedOnly(event.currentTarget.checked);
            setPage(1);
          }}
          mt={{ base: 0, sm: 'lg' }}
        />
      </Group>

      <ErrorBoundary>
        <RefreshFailedNote query={query} />
        {query.isPending ? (
          <PartyCardSkeletons />
        ) : failedWithNothingToShow(query) ? (
          <ErrorPanel
            title="Error loading parties"
            message={query.error.message}
            onRetry={() => void query.refetch()}
          />
        ) : query.data.parties.length === 0 ? (
          filtersActive ? (
            <EmptyState
              title="No parties found"
              message="No party matches these filters. Try another search or turn a filter off."
            />
          ) : (
            <EmptyState
              title="No parties joined"
              message="Join a party to collaborate with other players or create your own."
              action={
                <Button component={Link} to="/parties/discover">
                  Browse Parties
                </Button>
              }
            />
          )
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="party-grid">
            {query.data.parties.map((party) => (
              <PartyCard key={party.id} party={party} onDelete={setToDelete} />
            ))}
          </SimpleGrid>
        )}
      </ErrorBoundary>

      {totalPages > 1 ? (
        <Group justify="center">
          <Pagination
            total={totalPages}
            value={page}
            onChange={setPage}
            siblings={1}
            boundaries={1}
            aria-label="Party pages"
          />
        </Group>
      ) : null}

      <DeletePartyDialog party={toDelete} onClose={() => setToDelete(null)} />
    </Stack>
  );
}
