import { formatCopper, formatEnUs, type LedgerTransaction, transactionTypeLabel } from '@haversack/contracts';
import {
  Alert,
  Badge,
  Button,
  Group,
  Input,
  Pagination,
  Paper,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useInterval } from '@mantine/hooks';
import { IconAlertTriangle, IconChevronDown, IconChevronRight, IconDownload } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { useStayWithinPages } from '../../../lib/last-page';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { toast } from '../../../lib/toast';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { useCurrentUser } from '../../../stores/auth-store';
import {
  type DateRange,
  DEFAULT_DATE_RANGE,
  exportTransactionsCsv,
  HISTORY_PER_PAGE,
  type HistoryScope,
  isTransactionType,
  type TransactionTypeFilter,
  transactionsQuery,
} from '../api/transactions-api';
import { absoluteTime, relativeTime } from '../lib/relative-time';
import { changeSourceLabel, transactionTypeOptions } from '../lib/transaction-labels';
import { UndoMoveButton } from './undo-move-button';

export const exportFailedMessage = 'Failed to export transactions';

const rangeOptions: { value: DateRange; short: string; long: string }[] = [
  { value: '1d', short: '1d', long: 'Last day' },
  { value: '7d', short: '7d', long: 'Last 7 days' },
  { value: '30d', short: '30d', long: 'Last 30 days' },
  { value: 'all', short: 'All', long: 'All time' },
];

/** Relative times move on by themselves: the clock the list reads ticks every 30 s. */
function useNow(everyMs = 30_000): Date {
  const [now, setNow] = useState(() => new Date());
  const interval = useInterval(() => setNow(new Date()), everyMs);
  useEffect(() => {
    interval.start();
    return interval.stop;
  }, [interval.start, interval.stop]);
  return now;
}

interface TransactionHistoryProps {
  scope: HistoryScope;
  title?: string;
  /** spec/02 §9: 20 per page; the party Activity tab shows the latest 50. */
  perPage?: number;
  headingOrder?: 2 | 3;
}

/**
 * spec/02 §2 Transaction history: date range (1d, 7d, 30d, all; 7d first) and type filters, relative times,
 * paging, the empty and error states, and the CSV export when there is something to export.
 */
export function TransactionHistory({
  scope,
  title = 'Transaction history',
  perPage = HISTORY_PER_PAGE,
  headingOrder = 2,
}: TransactionHistoryProps) {
  const [range, setRange] = useState<DateRange>(DEFAULT_DATE_RANGE);
  const [type, setType] = useState<TransactionTypeFilter>('all');
  const [page, setPage] = useState(1);
  const query = useQuery(transactionsQuery(scope, { range, type, page, perPage }));
  const now = useNow();
  const me = useCurrentUser();
  const headingId = `history-heading-${scope.kind}-${scope.id}`;

  const once = useSingleFlight();
  const exportCsv = useMutation({
    mutationFn: () => exportTransactionsCsv(scope, { range, type }),
    onError: () => toast.error(exportFailedMessage),
  });

  const totalCount = query.data?.meta.total_count ?? 0;
  const totalPages = query.data?.meta.total_pages ?? 1;
  // A page emptied meanwhile (a loot hidden again, entries past the date range now) gives way to the last one.
  useStayWithinPages(page, query.data?.meta, query.isSuccess && !query.isPlaceholderData, setPage);

  return (
    <Stack gap="md" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" align="center" gap="sm">
        {/* Focusable from a script only: where the focus goes when an undone entry leaves the page. */}
        <Title order={headingOrder} size="h4" id={headingId} tabIndex={-1}>
          {title}
        </Title>
        {totalCount > 0 ? (
          <Button
            variant="default"
            size="sm"
            leftSection={<IconDownload size={16} aria-hidden="true" />}
            loading={exportCsv.isPending}
            loaderProps={{ type: 'dots' }}
            onClick={() => once(() => exportCsv.mutateAsync())}
          >
            Export CSV
          </Button>
        ) : null}
      </Group>

      <Group gap="sm" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Input.Label labelElement="div" id={`${headingId}-range`}>
            Date range
          </Input.Label>
          <SegmentedControl
            aria-labelledby={`${headingId}-range`}
            value={range}
            onChange={(value) => {
              const next = rangeOptions.find((option) => option.value === value);
              if (!next) return;
              setRange(next.value);
              setPage(1);
            }}
            data={rangeOptions.map((option) => ({
              value: option.value,
              label: (
                <>
                  <span aria-hidden="true">{option.short}</span>
                  <VisuallyHidden>{option.long}</VisuallyHidden>
                </>
              ),
            }))}
          />
        </Stack>
        <Select
          label="Type"
          data={transactionTypeOptions}
          value={type}
          onChange={(value) => {
            setType(value && isTransactionType(value) ? value : 'all');
            setPage(1);
          }}
          allowDeselect={false}
          w={{ base: '100%', xs: 240 }}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>

      {/* Read out when a filter's answer arrives, as the marketplace says its count: in the page from the
          start (a live region is listened to only for what changes in it), empty while loading. */}
      <VisuallyHidden role="status" data-testid="history-count">
        {query.data && !query.isPlaceholderData ? countText(totalCount) : ''}
      </VisuallyHidden>
      <RefreshFailedNote query={query} />
      {query.isPending ? (
        <HistorySkeleton />
      ) : failedWithNothingToShow(query) ? (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle aria-hidden="true" />}
          role="alert"
          data-testid="history-error"
        >
          <Stack gap="sm" align="flex-start">
            <Text size="sm">Error loading transactions: {query.error.message}</Text>
            <Button variant="outline" color="red" size="xs" onClick={() => void query.refetch()}>
              Try again
            </Button>
          </Stack>
        </Alert>
      ) : query.data.transactions.length === 0 ? (
        <EmptyState
          title="No transactions found"
          message="Inventory changes will appear here."
          headingOrder={3}
          testId="history-empty"
        />
      ) : (
        <>
          <Stack
            component="ul"
            gap="xs"
            p={0}
            m={0}
            style={{ listStyle: 'none', opacity: query.isPlaceholderData ? 0.6 : 1 }}
            aria-busy={query.isFetching}
            data-testid="history-list"
          >
            {/* One entry per action (a purchase's goods and coins, a deployment's stock), the rows it
                wrote behind a disclosure. */}
            {query.data.entries.map((entry) => (
              <TransactionRow
                key={entry.id}
                transaction={entry.lead}
                summary={entry.summary}
                badge={entry.badge}
                aggregated={entry.aggregated}
                rest={entry.rest}
                now={now}
                undoOf={(transaction) => undoState(transaction, query.data.transactions, me?.id ?? null)}
                headingId={headingId}
              />
            ))}
          </Stack>
          {totalPages > 1 ? (
            <Group justify="space-between" gap="sm">
              <Text size="sm" c="dimmed">
                {countText(totalCount)}
              </Text>
              <Pagination
                total={totalPages}
                value={page}
                onChange={setPage}
                siblings={1}
                boundaries={1}
                size="sm"
                aria-label="Transaction pages"
              />
            </Group>
          ) : null}
        </>
      )}
    </Stack>
  );
}

/**
 * What the filters found; spec/02 §2's empty text when nothing. The list is paged by action (a purchase's
 * goods and coins, a deployment's stock are one entry), and its total counts those entries, not the rows.
 */
function countText(count: number): string {
  if (count === 0) return 'No transactions found';
  return `${formatEnUs(count)} ${count === 1 ? 'entry' : 'entries'}`;
}

function HistorySkeleton() {
  return (
    <Stack gap="xs" aria-busy="true" data-testid="history-loading">
      <VisuallyHidden role="status">Loading transactions</VisuallyHidden>
      {[0, 1, 2, 3].map((row) => (
        <Paper key={row} withBorder p="sm" aria-hidden="true">
          <Group justify="space-between" wrap="nowrap">
            <Stack gap={6} style={{ flex: 1 }}>
              <Skeleton height={14} width="60%" />
              <Skeleton height={10} width="40%" />
            </Stack>
            <Skeleton height={10} width={56} />
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

/**
 * Whether a row offers Undo: my own move, not an undo itself, and not undone (the server says so of my own
 * moves on any page; another's move shows as undone when the undo is on the same page).
 */
export function undoState(
  transaction: LedgerTransaction,
  shown: LedgerTransaction[],
  myId: string | null,
): 'offer' | 'undone' | null {
  if (transaction.undone || shown.some((row) => row.reverts_transaction_id === transaction.id))
    return 'undone';
  const mine = myId !== null && transaction.actor_data.id === myId;
  return mine && transaction.undoable === true ? 'offer' : null;
}

/**
 * Where a row's goods went; a row whose goods stayed where they were (a character joining or leaving a
 * party with them) says where they are, once, not "Backpack (Nyx) → Backpack (Nyx)".
 */
/**
 * Whether a summary already says a quantity ("moved 4,000,000 × Platinum piece"): grouped, as the server
 * writes it, or not, as rows written before it grouped thousands say it.
 */
function saysQuantity(summary: string, quantity: number): boolean {
  return summary.includes(`${formatEnUs(quantity)} ×`) || summary.includes(`${quantity} ×`);
}

function placeOf(from: string | null | undefined, to: string | null | undefined): string | null {
  if (from && from === to) return `in ${from}`;
  if (from && to) return `${from} → ${to}`;
  if (from) return `from ${from}`;
  return to ? `to ${to}` : null;
}

function TransactionRow({
  transaction,
  summary = transaction.transaction_summary,
  badge = transactionTypeLabel(transaction.transaction_type),
  rest = [],
  aggregated = false,
  now,
  undoOf,
  headingId,
  nested = false,
}: {
  transaction: LedgerTransaction;
  /** The action's headline, when it is not the row's own summary (a deployment's "stocked 10 kinds…"). */
  summary?: string;
  /** What the action was ("Shop deployed"), when it is not the row's own type ("Container created"). */
  badge?: string;
  /** The action's other rows, behind "Show N more". */
  rest?: LedgerTransaction[];
  /** The summary tells the whole action: the lead row's own quantity and price are not its. */
  aggregated?: boolean;
  now: Date;
  undoOf: (transaction: LedgerTransaction) => 'offer' | 'undone' | null;
  headingId: string;
  /** One of an action's other rows, in its entry's disclosure. */
  nested?: boolean;
}) {
  const rowRef = useRef<HTMLLIElement>(null);
  const [open, setOpen] = useState(false);
  const restId = useId();
  const undo = undoOf(transaction);
  const sourceLabel = changeSourceLabel(transaction.source);
  // The line under the summary adds what the summary does not already say ("Pip added 1 × Rope to
  // Backpack" then "by Pip · ×1 · to Backpack" read twice over, screen review).
  const actor = transaction.actor_data.name;
  const told = (name: string | null | undefined) => (name && summary.includes(name) ? null : name);
  const from = told(transaction.source_location_data.name);
  const to = told(transaction.destination_location_data.name);
  const details = [
    actor && !summary.startsWith(actor) ? `by ${actor}` : null,
    !aggregated && transaction.quantity !== null && !saysQuantity(summary, transaction.quantity)
      ? `×${formatEnUs(transaction.quantity)}`
      : null,
    // Moves and additions carry no money (amount 0): only trades show one. The ledger keeps copper: a
    // conversion's 5,400 reads "54 gp".
    transaction.amount && !aggregated
      ? transaction.currency === 'cp'
        ? formatCopper(transaction.amount)
        : `${formatEnUs(transaction.amount)} ${transaction.currency ?? 'gold'}`
      : null,
    placeOf(from, to),
  ].filter((part): part is string => part !== null);

  return (
    // Focusable from a script only (tabIndex -1): after Undo the focus stays on this entry, which now reads
    // "Undone", so the keyboard keeps its place in the list; mantine-focus-auto rings it (app/global.css).
    <Paper
      component="li"
      ref={rowRef}
      withBorder={!nested}
      p={nested ? 0 : 'sm'}
      pt={nested ? 'xs' : undefined}
      tabIndex={-1}
      className="mantine-focus-auto"
      data-testid={nested ? 'history-subrow' : 'history-row'}
    >
      <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Group gap="xs" wrap="wrap">
            <Badge variant="light" size="sm" radius="sm">
              {badge}
            </Badge>
            {sourceLabel ? (
              <Badge variant="outline" color="grape" size="sm" radius="sm" data-testid="history-source">
                {sourceLabel}
              </Badge>
            ) : null}
            {undo === 'undone' ? (
              <Badge variant="outline" color="gray" size="sm" radius="sm" data-testid="history-undone">
                Undone
              </Badge>
            ) : null}
            <Text size="sm" fw={nested ? 400 : 500} style={{ overflowWrap: 'anywhere' }}>
              {summary}
            </Text>
          </Group>
          {details.length > 0 ? (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="history-details">
              {details.join(' · ')}
            </Text>
          ) : null}
          {transaction.notes ? (
            <Text size="xs" fs="italic" style={{ overflowWrap: 'anywhere' }}>
              {transaction.notes}
            </Text>
          ) : null}
          {rest.length > 0 ? (
            <Button
              variant="subtle"
              size="compact-xs"
              px={4}
              style={{ alignSelf: 'flex-start' }}
              aria-expanded={open}
              aria-controls={restId}
              leftSection={
                open ? (
                  <IconChevronDown size={14} aria-hidden="true" />
                ) : (
                  <IconChevronRight size={14} aria-hidden="true" />
                )
              }
              onClick={() => setOpen((was) => !was)}
              // Named by its entry: a page of them read as one "Show 10 more" after another (screen
              // review); the name starts with the words shown (WCAG 2.5.3).
              aria-label={
                open
                  ? `Show fewer lines: ${summary}`
                  : `Show ${rest.length} more ${rest.length === 1 ? 'line' : 'lines'}: ${summary}`
              }
            >
              {open ? 'Show fewer' : `Show ${rest.length} more`}
            </Button>
          ) : null}
          {/* Always in the page, so that aria-controls names it; empty while closed. */}
          {rest.length > 0 ? (
            <Stack
              component="ul"
              id={restId}
              gap={0}
              p={0}
              pl="sm"
              m={0}
              // Stack's display: flex would outdo the hidden attribute alone.
              style={{
                listStyle: 'none',
                borderLeft: '2px solid var(--mantine-color-default-border)',
                display: open ? undefined : 'none',
              }}
              hidden={!open}
              data-testid="history-operation-rows"
            >
              {open
                ? rest.map((row) => (
                    <TransactionRow
                      key={row.id}
                      transaction={row}
                      now={now}
                      undoOf={undoOf}
                      headingId={headingId}
                      nested
                    />
                  ))
                : null}
            </Stack>
          ) : null}
        </Stack>
        <Stack gap={4} align="flex-end">
          {nested ? null : (
            <Text
              component="time"
              dateTime={transaction.transaction_date}
              title={absoluteTime(transaction.transaction_date)}
              size="xs"
              c="dimmed"
              style={{ whiteSpace: 'nowrap' }}
            >
              {relativeTime(transaction.transaction_date, now)}
            </Text>
          )}
          {undo === 'offer' ? (
            <UndoMoveButton
              transaction={transaction}
              // This entry while it is on the page; else (the page changed under it) the list's heading.
              focusWhenGone={() =>
                rowRef.current?.isConnected ? rowRef.current : document.getElementById(headingId)
              }
            />
          ) : null}
        </Stack>
      </Group>
    </Paper>
  );
}
