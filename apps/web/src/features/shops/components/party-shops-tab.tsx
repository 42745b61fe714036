import { shopMessages } from '@haversack/contracts';
import { Alert, Anchor, Button, Group, Pagination, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { useStayWithinPages } from '../../../lib/last-page';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { partyShopsPageQuery } from '../api/shops-api';
import { ShopCardSkeletons, ShopGrid, ShopInstanceCard } from './shop-card';

/**
 * spec/02 §2 party Shops tab: "Party Shops (count)", Deploy New Shop (for the GM or a manager), the shop
 * cards, or the empty state. A page of cards at a time with the numbered pager of the Parties page: a year
 * of play left a party with 100 shops.
 */
export function PartyShopsTab({ partyId, canDeploy }: { partyId: string; canDeploy: boolean }) {
  const [page, setPage] = useState(1);
  const query = useQuery(partyShopsPageQuery(partyId, page));
  const count = query.data?.total ?? query.data?.instances.length;
  const totalPages = query.data?.meta.total_pages ?? 1;
  // A page emptied by shops deleted meanwhile (here or live, elsewhere) gives way to the last one left.
  useStayWithinPages(page, query.data?.meta, query.isSuccess && !query.isPlaceholderData, setPage);
  return (
    <Stack gap="md" data-testid="party-shops">
      <Group justify="space-between" align="center">
        <Title order={2} size="h3">
          Party Shops{count === undefined ? '' : ` (${count})`}
        </Title>
        {/* Deploying is the GM's or a manager's (spec/02 §7 POST shop_instances); a player could only be refused. */}
        {canDeploy ? (
          <Anchor component={Link} to="/shops" fw={600}>
            Deploy New Shop
          </Anchor>
        ) : null}
      </Group>
      <RefreshFailedNote query={query} />
      {query.isPending ? (
        <ShopCardSkeletons />
      ) : failedWithNothingToShow(query) ? (
        <Alert
          color="red"
          variant="light"
          title={shopMessages.unableToLoad}
          icon={<IconAlertTriangle aria-hidden="true" />}
          role="alert"
        >
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{shopMessages.loadFailed}</Text>
            <Button variant="outline" color="red" size="xs" onClick={() => void query.refetch()}>
              Try Again
            </Button>
          </Stack>
        </Alert>
      ) : query.data.instances.length === 0 ? (
        <Paper withBorder p="xl" data-testid="empty-state">
          <Stack align="center" gap="sm" ta="center">
            <Title order={3} size="h4">
              {shopMessages.noShopsFound}
            </Title>
            <Text c="dimmed" size="sm">
              {canDeploy ? shopMessages.noPartyShops : shopMessages.noPartyShopsForMember}
            </Text>
            {canDeploy ? (
              <Button component={Link} to="/shops">
                Deploy Shop Template
              </Button>
            ) : null}
          </Stack>
        </Paper>
      ) : (
        <>
          <ShopGrid testId="party-shop-cards">
            {query.data.instances.map((shop) => (
              <ShopInstanceCard key={shop.id} shop={shop} />
            ))}
          </ShopGrid>
          {totalPages > 1 ? (
            <Group justify="center">
              <Pagination
                total={totalPages}
                value={page}
                onChange={setPage}
                siblings={1}
                boundaries={1}
                aria-label="Party shop pages"
              />
            </Group>
          ) : null}
        </>
      )}
    </Stack>
  );
}
