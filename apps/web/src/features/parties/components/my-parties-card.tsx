import { Anchor, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DashboardListCard } from '../../../components/dashboard-list-card';
import { myActivePartiesQuery } from '../api/parties-api';
import { PartyRoleBadge } from './party-role-badge';

/** Dashboard: my live parties at a glance. */
export function MyPartiesCard() {
  const query = useQuery(myActivePartiesQuery());
  return (
    <DashboardListCard
      name="parties"
      title="My Parties"
      viewAllTo="/parties"
      status={query.status}
      onRetry={() => void query.refetch()}
      errorText="Your parties could not be loaded."
      empty={
        <Text size="sm" c="dimmed">
          You are not in a party yet.
        </Text>
      }
      items={query.data?.parties ?? []}
      total={query.data?.meta.total_count ?? 0}
      itemKey={(party) => party.id}
      renderItem={(party) => (
        <>
          <Anchor
            component={Link}
            to={`/parties/${party.id}`}
            size="sm"
            className="haversack-touch-target"
            style={{ overflowWrap: 'anywhere' }}
          >
            {party.name}
          </Anchor>
          <PartyRoleBadge party={party} />
        </>
      )}
    />
  );
}
