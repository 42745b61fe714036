import {
  type CharacterWealth,
  type Currency,
  formatEnUs,
  formatStackWorth,
  type Purse,
} from '@haversack/contracts';
import { Box, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { characterWealthQuery } from '../api/wealth-api';
import { EncumbranceBadge, LoadMeter, loadLabel } from './load-meter';

/** Largest first, as players count a purse. */
const purseOrder: Currency[] = ['pp', 'gp', 'ep', 'sp', 'cp'];
const coinNames: Record<Currency, string> = {
  pp: 'platinum',
  gp: 'gold',
  ep: 'electrum',
  sp: 'silver',
  cp: 'copper',
};

/** "1 pp 15 gp 7 sp" (thousands grouped, empty coins left out); "Empty" for no coins at all. */
export function purseLabel(coins: Purse): string {
  const parts = purseOrder
    .filter((coin) => coins[coin] > 0)
    .map((coin) => `${formatEnUs(coins[coin])} ${coin}`);
  return parts.length > 0 ? parts.join(' ') : 'Empty';
}

/**
 * The five coins of a purse, each with its count (0 dimmed, so the purse always reads the same way). A
 * count is never broken across lines ("10,00 / 0,500" in a fifth of a column): the tiles are as wide as
 * the longest count, all alike, and wrap onto another row when five do not fit.
 */
export function PurseCoins({ coins }: { coins: Purse }) {
  const counts = purseOrder.map((coin) => ({ coin, count: formatEnUs(coins[coin]) }));
  // A bold digit is a little wider than the ch of the list's (same-sized) font, a comma about half of it.
  const widest = Math.max(
    3,
    ...counts.map(
      ({ count }) => count.replace(/,/g, '').length * 1.1 + (count.match(/,/g)?.length ?? 0) * 0.5,
    ),
  );
  return (
    <Box
      component="ul"
      p={0}
      m={0}
      aria-label="Coins"
      data-testid="purse-coins"
      style={{
        display: 'grid',
        gap: 6,
        fontSize: 'var(--mantine-font-size-sm)',
        // The tile's padding and borders: 10 px.
        gridTemplateColumns: `repeat(auto-fill, minmax(calc(${widest}ch + 12px), 1fr))`,
      }}
    >
      {counts.map(({ coin, count }) => (
        <Paper
          key={coin}
          component="li"
          withBorder
          px={4}
          py={6}
          ta="center"
          style={{ listStyle: 'none' }}
          data-testid={`purse-${coin}`}
          aria-label={`${count} ${coinNames[coin]}`}
        >
          <Text
            fw={700}
            size="sm"
            c={coins[coin] === 0 ? 'dimmed' : undefined}
            style={{ whiteSpace: 'nowrap' }}
          >
            {count}
          </Text>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {coin}
          </Text>
        </Paper>
      ))}
    </Box>
  );
}

/**
 * Purse, load and worth side by side from a desktop's width only: on a tablet the sidebar takes 250 px and
 * a third of what is left could not hold the five coins ("5/0/8/G/P" at 768 px).
 */
function WealthBlocks({ wealth }: { wealth: CharacterWealth }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
      <Stack gap={6} data-testid="wealth-purse">
        <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
          Purse
        </Text>
        <PurseCoins coins={wealth.coins} />
      </Stack>
      <Stack gap={2} data-testid="wealth-total">
        <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
          Wealth
        </Text>
        {/* To the copper, all three: in whole gp each was rounded down on its own, and 185 gp 7 sp of coins
            and 70 gp 7 sp 6 cp of items read "Coins 185 gp · Items 70 gp" under "256 gp". Rounding the parts
            to fit the total instead would misstate the coins the purse beside them counts exactly. */}
        <Text fw={700} fz="xl" data-testid="wealth-total-value">
          {formatStackWorth(wealth.total_value_cp)}
        </Text>
        <Text size="xs" c="dimmed">
          Coins {formatStackWorth(wealth.coins_value_cp)} · Items {formatStackWorth(wealth.items_value_cp)}
        </Text>
      </Stack>
      <Stack gap={6} data-testid="wealth-load">
        <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
          Load
        </Text>
        <LoadMeter load={wealth} showEffect />
      </Stack>
    </SimpleGrid>
  );
}

/**
 * Issue 12 §4 on the character page: the purse (coins across every container), the total wealth in gp
 * (items and coins) and the character-wide load against its max weight.
 */
export function CharacterWealthPanel({ characterId }: { characterId: string }) {
  const query = useQuery(characterWealthQuery(characterId));
  const headingId = useId();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId} data-testid="character-wealth">
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          Purse and load
        </Title>
        <RefreshFailedNote query={query} />
        {query.isPending ? (
          <SimpleGrid
            cols={{ base: 1, md: 3 }}
            spacing="md"
            aria-busy="true"
            data-testid="character-wealth-loading"
          >
            {[0, 1, 2].map((i) => (
              <Stack key={i} gap={6}>
                <Skeleton height={12} width={60} />
                <Skeleton height={36} />
              </Stack>
            ))}
          </SimpleGrid>
        ) : failedWithNothingToShow(query) ? (
          <ErrorPanel
            title="Unable to Load Wealth"
            message="Failed to count this character's coins and load. Please try again."
            onRetry={() => void query.refetch()}
          />
        ) : (
          <WealthBlocks wealth={query.data} />
        )}
      </Stack>
    </Paper>
  );
}

/**
 * Issue 12 §4 in the inventory header: one line with the purse's worth, the total wealth and the load.
 * Quiet while loading and on failure (the workspace below has its own states); a retry link on failure.
 */
export function CharacterWealthStrip({ characterId }: { characterId: string }) {
  const query = useQuery(characterWealthQuery(characterId));
  if (query.isPending) return <Skeleton height={20} width={260} data-testid="wealth-strip-loading" />;
  if (failedWithNothingToShow(query)) {
    return (
      <Text size="sm" c="dimmed" data-testid="wealth-strip-error">
        Wealth could not be loaded.{' '}
        <Text
          component="button"
          type="button"
          size="sm"
          c="blue"
          td="underline"
          style={{ background: 'none', border: 0, padding: 0, cursor: 'pointer' }}
          onClick={() => void query.refetch()}
        >
          Try Again
        </Text>
      </Text>
    );
  }
  const wealth = query.data;
  return (
    <Group gap="md" wrap="wrap" data-testid="wealth-strip" aria-label="Purse, wealth and load">
      <Text size="sm">
        <Text span c="dimmed">
          Purse{' '}
        </Text>
        <Text span fw={600} data-testid="wealth-strip-purse">
          {purseLabel(wealth.coins)}
        </Text>
      </Text>
      <Text size="sm">
        <Text span c="dimmed">
          Wealth{' '}
        </Text>
        {/* To the copper, as the character page's panel says it: whole gp here read 1,266 gp for its
            1,266 gp 2 sp 4 cp. */}
        <Text span fw={600}>
          {formatStackWorth(wealth.total_value_cp)}
        </Text>
      </Text>
      <Text size="sm">
        <Text span c="dimmed">
          Load{' '}
        </Text>
        <Text span fw={600}>
          {loadLabel(wealth)}
        </Text>
      </Text>
      <EncumbranceBadge load={wealth} />
      {/* A recount that failed (coins spent at a shop meanwhile) keeps the last one, and says so. */}
      <RefreshFailedNote query={query} />
    </Group>
  );
}
