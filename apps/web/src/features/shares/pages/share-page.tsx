import {
  formatCopper,
  formatStackWorth,
  inventoryMessages,
  type SharedSnapshot,
  saturatingSum,
  shareKindLabels,
  shareMessages,
  shopLocationLabel,
} from '@haversack/contracts';
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { formatCount } from '../../../lib/format';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { formatStackWeight, formatWeight } from '../../../lib/weight';
import { isShareNotFound, sharedSnapshotQuery } from '../api/shares-api';
import { itemsLabel, stacksLabel } from '../components/share-format';

/** spec/02 §2 /discord/share/{shareCode}: what a member shared, read-only, for anyone with the link. */
export function SharePage() {
  const { shareCode = '' } = useParams();
  const query = useQuery(sharedSnapshotQuery(shareCode));
  usePageTitle(
    query.data?.title ?? (query.isError && isShareNotFound(query.error) ? 'Share link not found' : 'Shared'),
  );

  if (query.isPending) {
    return (
      <Stack gap="md" data-testid="share-loading">
        <TextSkeleton lines={2} />
        <TextSkeleton lines={6} />
      </Stack>
    );
  }
  // A link revoked meanwhile (404) ends the page, as on a first load; a refresh that failed otherwise keeps
  // what was shared on screen with a note.
  if (query.isError && isShareNotFound(query.error)) return <ShareNotFound />;
  if (failedWithNothingToShow(query)) {
    return (
      <ErrorPanel
        title="Could not load this share"
        message="The shared page could not be loaded. Please try again."
        onRetry={() => void query.refetch()}
      />
    );
  }
  return <SharedView snapshot={query.data} refreshNote={<RefreshFailedNote query={query} />} />;
}

function ShareNotFound() {
  return (
    <Paper withBorder p="xl" data-testid="share-not-found">
      <Stack align="center" gap="sm" ta="center">
        <Title order={1} size="h3">
          Share link not found
        </Title>
        <Text c="dimmed">{shareMessages.notFound}</Text>
        <Text c="dimmed" size="sm">
          Ask whoever gave you the link for a new one.
        </Text>
        <Button component={Link} to="/home" variant="default">
          Go to Haversack
        </Button>
      </Stack>
    </Paper>
  );
}

function details(snapshot: SharedSnapshot): string[] {
  if (snapshot.kind === 'character') return [snapshot.subtitle];
  if (snapshot.kind === 'loot') return [snapshot.location, snapshot.description];
  return [
    [snapshot.shop_type_name, shopLocationLabel(snapshot.location)].filter(Boolean).join(' · '),
    snapshot.description,
  ];
}

/**
 * The worth of the coin rows shown, or null when there are none. totals.items_count counts units of the
 * items that are not coins, so a table with coin rows says what it left out of the count.
 */
function coinWorthCp(snapshot: SharedSnapshot): number | null {
  const coins = snapshot.sections.flatMap((section) => section.items).filter((item) => item.is_coin);
  return coins.length > 0 ? saturatingSum(coins.map((item) => item.total_value_cp)) : null;
}

function SharedView({ snapshot, refreshNote }: { snapshot: SharedSnapshot; refreshNote: ReactNode }) {
  const isShop = snapshot.kind === 'shop';
  const coinsCp = coinWorthCp(snapshot);
  return (
    <Stack gap="lg" data-testid="shared-view">
      <Stack gap={6}>
        <Group gap="xs">
          <Badge variant="light">{shareKindLabels[snapshot.kind]}</Badge>
          {snapshot.kind === 'shop' ? (
            <Badge color={snapshot.is_open ? 'teal' : 'gray'} variant="light">
              {snapshot.is_open ? 'Open' : 'Closed'}
            </Badge>
          ) : null}
          <Badge color="gray" variant="outline">
            Read-only
          </Badge>
        </Group>
        <Title order={1} style={{ overflowWrap: 'anywhere' }}>
          {snapshot.title}
        </Title>
        {details(snapshot)
          .filter((line) => line.trim() !== '')
          .map((line) => (
            <Text key={line} c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {line}
            </Text>
          ))}
      </Stack>
      {refreshNote}
      <SimpleGrid cols={{ base: 3 }} spacing="sm">
        <Stat
          label="Items"
          value={itemsLabel(snapshot.totals.items_count)}
          note={coinsCp === null ? null : `plus ${formatStackWorth(coinsCp)} in coins`}
        />
        <Stat label="Weight" value={formatWeight(snapshot.totals.total_weight)} />
        <Stat
          label={isShop ? 'Stock at shop prices' : 'Value'}
          value={formatStackWorth(snapshot.totals.total_value_cp)}
        />
      </SimpleGrid>
      {snapshot.sections.map((section, index) => (
        <Paper
          withBorder
          p={{ base: 'sm', sm: 'md' }}
          component="section"
          // biome-ignore lint/suspicious/noArrayIndexKey: a snapshot has no ids (by design) and never reorders.
          key={`${section.name}-${index}`}
          aria-labelledby={`shared-section-${index}`}
        >
          <Stack gap="sm">
            <Title order={2} size="h4" id={`shared-section-${index}`} style={{ overflowWrap: 'anywhere' }}>
              {section.name}
            </Title>
            {section.items.length === 0 ? (
              <Text c="dimmed" size="sm">
                Nothing here.
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={320}>
                <Table striped verticalSpacing="xs" fz="sm">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Item</Table.Th>
                      <Table.Th ta="right">Qty</Table.Th>
                      <Table.Th ta="right">Weight</Table.Th>
                      <Table.Th ta="right">{isShop ? 'Price' : 'Value'}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {section.items.map((item, row) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a snapshot has no ids (by design) and never reorders.
                      <Table.Tr key={`${item.name}-${row}`}>
                        <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.name}</Table.Td>
                        <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                          {formatCount(item.quantity)}
                        </Table.Td>
                        <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                          {formatStackWeight(item.weight, item.quantity)}
                        </Table.Td>
                        <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                          {isShop && item.price_cp !== null
                            ? formatCopper(item.price_cp)
                            : item.is_unpriced
                              ? inventoryMessages.unpriced
                              : formatStackWorth(item.total_value_cp)}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            {section.more_items > 0 ? (
              <Text size="sm" c="dimmed">
                and {stacksLabel(section.more_items)} more
              </Text>
            ) : null}
          </Stack>
        </Paper>
      ))}
      <Text size="sm" c="dimmed">
        A read-only view shared from Haversack, the companion app for tabletop role-playing groups.
      </Text>
    </Stack>
  );
}

function Stat({ label, value, note = null }: { label: string; value: string; note?: string | null }) {
  return (
    <Paper withBorder p="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700} fz={{ base: 'md', sm: 'lg' }}>
        {value}
      </Text>
      {note ? (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      ) : null}
    </Paper>
  );
}
