import { type LedgerTransaction, transactionTypeLabel } from '@haversack/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { tokenStorage } from '../../../lib/token-storage';
import { useAuthStore } from '../../../stores/auth-store';
import {
  authHeaderOf,
  buildTokens,
  buildUser,
  failure,
  jsonResponse,
  mockFetch,
} from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { TransactionHistory, undoState } from './transaction-history';

function buildTransaction(overrides: Partial<LedgerTransaction> = {}): LedgerTransaction {
  return {
    id: 'tx-1',
    transaction_type: 'item_creation',
    transaction_date: new Date(Date.now() - 5.5 * 60_000).toISOString(),
    transaction_summary: 'Pip added Rope (50 ft) to Party Stash',
    actor_data: { id: 'user-2', name: 'Pip' },
    target_data: { id: null, name: null },
    transactable_data: { id: 'tpl-1', name: 'Rope (50 ft)', item_instance_id: 'ii-1' },
    quantity: 2,
    amount: null,
    currency: null,
    notes: null,
    source_location_data: { id: null, name: null },
    destination_location_data: { id: 'c-1', name: 'Party Stash' },
    party_id: 'party-1',
    character_id: null,
    source: 'web',
    ...overrides,
  };
}

function listResponse(transactions: LedgerTransaction[], totalCount = transactions.length, perPage = 20) {
  return jsonResponse(200, {
    status: 'success',
    data: { transactions },
    meta: {
      current_page: 1,
      total_pages: Math.max(1, Math.ceil(totalCount / perPage)),
      total_count: totalCount,
      per_page: perPage,
    },
  });
}

const listCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => !url.includes('export.csv'));
const lastListQuery = (fetchMock: ReturnType<typeof mockFetch>) =>
  Object.fromEntries(new URL(listCalls(fetchMock).at(-1) ?? '', 'http://test').searchParams);

/** `days` × 24 hours before now, as the ISO instant the list asks from: worked out here independently. */
function daysAgo(days: number): string {
  return new Date(Date.now() - days * 24 * 3_600_000).toISOString();
}

function renderHistory(perPage?: number) {
  return renderRoutes(
    [
      {
        path: '/',
        element: <TransactionHistory scope={{ kind: 'party', id: 'party-1' }} perPage={perPage} />,
      },
    ],
    '/',
  );
}

describe('TransactionHistory', () => {
  it('reads an amount the ledger keeps in copper as coins: 5,400 cp is 54 gp', async () => {
    mockFetch(() =>
      listResponse([
        buildTransaction({
          transaction_type: 'currency_conversion',
          transaction_summary: 'Pip converted 540 × Silver piece into 54 × Gold piece',
          quantity: 540,
          amount: 5400,
          currency: 'cp',
        }),
      ]),
    );
    renderHistory();
    const row = await screen.findByTestId('history-row');
    expect(within(row).getByTestId('history-details')).toHaveTextContent(/^54 gp · to Party Stash$/);
    expect(row).not.toHaveTextContent('5400 cp');
  });

  it('adds under the summary only what the summary does not say', async () => {
    mockFetch(() =>
      listResponse([
        buildTransaction({
          id: 'said',
          transaction_summary: 'player added 1 × Potion of Healing to Backpack (Thistle)',
          actor_data: { id: 'user-2', name: 'player' },
          quantity: 1,
          destination_location_data: { id: 'c-1', name: 'Backpack (Thistle)' },
        }),
        buildTransaction({
          id: 'unsaid',
          transaction_summary: 'Restocked',
          actor_data: { id: 'user-3', name: 'Mira' },
          quantity: 3,
          source_location_data: { id: 'c-2', name: 'Cart' },
          destination_location_data: { id: 'c-3', name: 'Shelf' },
        }),
      ]),
    );
    renderHistory();
    const [said, unsaid] = await screen.findAllByTestId('history-row');
    if (!said || !unsaid) throw new Error('two rows expected');
    expect(within(said).queryByTestId('history-details')).not.toBeInTheDocument();
    expect(within(unsaid).getByTestId('history-details')).toHaveTextContent('by Mira · ×3 · Cart → Shelf');
  });

  it('groups the thousands of a quantity it adds, and knows a summary that says it, grouped or not', async () => {
    // Review (coins, 8): quantities group, as the server's summaries now do.
    mockFetch(() =>
      listResponse([
        buildTransaction({
          id: 'grouped',
          transaction_summary: 'pcoin1 split 4,000,000 × Platinum piece off a stack of 10,000,000 in Vault',
          actor_data: { id: 'user-2', name: 'pcoin1' },
          quantity: 4_000_000,
          destination_location_data: { id: 'c-1', name: 'Vault' },
        }),
        buildTransaction({
          id: 'older',
          transaction_summary: 'pcoin1 moved 10000000 × Platinum piece from Backpack to Vault',
          actor_data: { id: 'user-2', name: 'pcoin1' },
          quantity: 10_000_000,
          source_location_data: { id: 'c-2', name: 'Backpack' },
          destination_location_data: { id: 'c-1', name: 'Vault' },
        }),
        buildTransaction({
          id: 'unsaid',
          transaction_summary: 'Restocked',
          actor_data: { id: 'user-3', name: 'Mira' },
          quantity: 1_234_567,
          source_location_data: { id: 'c-2', name: 'Cart' },
          destination_location_data: { id: 'c-3', name: 'Shelf' },
        }),
      ]),
    );
    renderHistory();
    const [grouped, older, unsaid] = await screen.findAllByTestId('history-row');
    if (!grouped || !older || !unsaid) throw new Error('three rows expected');
    expect(within(grouped).queryByTestId('history-details')).not.toBeInTheDocument();
    expect(within(older).queryByTestId('history-details')).not.toBeInTheDocument();
    expect(within(unsaid).getByTestId('history-details')).toHaveTextContent(
      'by Mira · ×1,234,567 · Cart → Shelf',
    );
  });

  it('names each row’s type as the CSV export’s Type column does', async () => {
    mockFetch(() =>
      listResponse([
        buildTransaction({ id: 'tx-1', transaction_type: 'transfer', transaction_summary: 'Pip moved rope' }),
        buildTransaction({
          id: 'tx-2',
          transaction_type: 'loot_distribution',
          transaction_summary: 'Pip shared out the hoard',
        }),
      ]),
    );
    renderHistory();
    const rows = await screen.findAllByTestId('history-row');
    // One copy of the labels, in the contracts: the server writes the same words into the CSV.
    expect(within(rows[0] as HTMLElement).getByText('Transfer')).toBeInTheDocument();
    expect(transactionTypeLabel('transfer')).toBe('Transfer');
    expect(
      within(rows[1] as HTMLElement).getByText(transactionTypeLabel('loot_distribution')),
    ).toHaveTextContent(/^Loot distribution$/);
  });

  it('asks for the last 7 days first, then follows the date range and type filters', async () => {
    // Only the clock stands still (the start is now minus the range); timers run, for the clicks and retries.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-10T10:30:00Z') });
    onTestFinished(() => void vi.useRealTimers());
    const fetchMock = mockFetch(() => listResponse([buildTransaction()]));
    const user = userEvent.setup();
    renderHistory(50);
    expect(await screen.findByText('Pip added Rope (50 ft) to Party Stash')).toBeInTheDocument();
    expect(listCalls(fetchMock)[0]).toContain('/api/v1/transactions/party/party-1?');
    expect(lastListQuery(fetchMock)).toEqual({
      page: '1',
      per_page: '50',
      group: 'operation',
      start_date: daysAgo(7),
    });
    expect(screen.getByText('5m ago')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Last 30 days' }));
    await waitFor(() => expect(lastListQuery(fetchMock).start_date).toBe(daysAgo(30)));
    await user.click(screen.getByRole('radio', { name: 'Last day' }));
    await waitFor(() => expect(lastListQuery(fetchMock).start_date).toBe(daysAgo(1)));
    await user.click(screen.getByRole('radio', { name: 'All time' }));
    await vi.waitFor(() =>
      expect(lastListQuery(fetchMock)).toEqual({ page: '1', per_page: '50', group: 'operation' }),
    );

    await user.click(screen.getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'Split' }));
    await vi.waitFor(() =>
      expect(lastListQuery(fetchMock)).toEqual({
        page: '1',
        per_page: '50',
        group: 'operation',
        transaction_type: 'split',
      }),
    );
  });

  it('says politely how many entries (actions) a filter finds, or that it finds none', async () => {
    mockFetch(({ url }) => {
      const type = new URL(url, 'http://test').searchParams.get('transaction_type');
      if (type === 'split') return listResponse([]);
      if (type === 'merge') return listResponse([buildTransaction()]);
      return listResponse([buildTransaction(), buildTransaction({ id: 'tx-2' })], 12, 50);
    });
    const user = userEvent.setup();
    renderHistory(50);
    const status = screen.getByTestId('history-count');
    expect(status).toHaveAttribute('role', 'status');
    // The list is paged by action (group=operation): the total counts entries, not the rows behind them.
    await waitFor(() => expect(status).toHaveTextContent(/^12 entries$/));

    const chooseType = async (name: string) => {
      await user.click(screen.getByRole('combobox', { name: 'Type' }));
      await user.click(await screen.findByRole('option', { name }));
    };
    await chooseType('Split');
    await waitFor(() =>
      expect(screen.getByTestId('history-count')).toHaveTextContent('No transactions found'),
    );
    await chooseType('Merge');
    await waitFor(() => expect(screen.getByTestId('history-count')).toHaveTextContent(/^1 entry$/));
  });

  it('says beside the pages how many entries there are, not transactions', async () => {
    mockFetch(() => listResponse([buildTransaction(), buildTransaction({ id: 'tx-2' })], 1234, 50));
    renderHistory(50);
    await screen.findAllByTestId('history-row');
    // The count beside the pages, besides the one read out to a screen reader (history-count).
    const shown = screen
      .getAllByText('1,234 entries')
      .filter((count) => !count.closest('[data-testid="history-count"]'));
    expect(shown).toHaveLength(1);
    expect(shown[0]).toBeVisible();
    expect(screen.queryByText(/\d transactions/)).not.toBeInTheDocument();
  });

  it('goes back to the last page when the one shown empties, rather than saying there is nothing', async () => {
    // Page 2 of 2, then its entries left the list (a loot hidden again, the date range moving on): page 2 of
    // 1 said "No transactions found" beside Export CSV, with no pager to go back by.
    let hidden = false;
    const fetchMock = mockFetch(({ url }) => {
      const page = new URL(url, 'http://test').searchParams.get('page');
      if (page === '2' && !hidden) {
        hidden = true;
        return listResponse([buildTransaction({ id: 'tx-21' })], 21);
      }
      return page === '2' ? listResponse([], 20) : listResponse([buildTransaction()], hidden ? 20 : 21);
    });
    const user = userEvent.setup();
    const { queryClient } = renderHistory();
    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    await vi.waitFor(() => expect(lastListQuery(fetchMock).page).toBe('2'));
    await screen.findAllByTestId('history-row');
    await act(async () => {
      await queryClient.invalidateQueries();
    });
    await vi.waitFor(() => expect(lastListQuery(fetchMock).page).toBe('1'));
    expect(await screen.findAllByTestId('history-row')).toHaveLength(1);
    expect(screen.queryByTestId('history-empty')).not.toBeInTheDocument();
  });

  it('marks rows made via Discord, via the API, by an admin or automatically, and not those from the web', async () => {
    mockFetch(() =>
      listResponse([
        buildTransaction({ id: 't-web', transaction_summary: 'From the web', source: 'web' }),
        buildTransaction({ id: 't-discord', transaction_summary: 'From Discord', source: 'discord' }),
        buildTransaction({ id: 't-api', transaction_summary: 'From a script', source: 'api' }),
        buildTransaction({ id: 't-admin', transaction_summary: 'From an admin', source: 'admin' }),
        buildTransaction({ id: 't-system', transaction_summary: 'Restocked', source: 'system' }),
      ]),
    );
    renderHistory();
    const rowOf = async (summary: string) => (await screen.findByText(summary)).closest('li');
    const badge = async (summary: string) =>
      (await rowOf(summary))?.querySelector('[data-testid="history-source"]')?.textContent ?? null;
    expect(await badge('From the web')).toBeNull();
    expect(await badge('From Discord')).toBe('via Discord');
    expect(await badge('From a script')).toBe('via API');
    expect(await badge('From an admin')).toBe('by Admin');
    expect(await badge('Restocked')).toBe('Automatic');
  });

  it('shows the empty state and no Export CSV when there is nothing to export', async () => {
    mockFetch(() => listResponse([], 0));
    renderHistory();
    expect(await screen.findByRole('heading', { name: 'No transactions found' })).toBeInTheDocument();
    expect(screen.getByText('Inventory changes will appear here.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).not.toBeInTheDocument();
  });

  it('offers Export CSV once there are transactions, and downloads with the bearer token and filters', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-10T10:30:00Z') });
    onTestFinished(() => void vi.useRealTimers());
    tokenStorage.setTokens(buildTokens({ token: 'access-9' }));
    const fetchMock = mockFetch(({ url }) =>
      url.includes('export.csv')
        ? new Response('Date,Type\n', {
            status: 200,
            headers: {
              'Content-Type': 'text/csv',
              'Content-Disposition': 'attachment; filename="transactions-party-1-2026-03-10.csv"',
            },
          })
        : listResponse([buildTransaction()], 1),
    );
    const createUrl = vi.fn(() => 'blob:csv');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: createUrl, revokeObjectURL: vi.fn() }));
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    const user = userEvent.setup();
    renderHistory();
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(clicked).toEqual(['transactions-party-1-2026-03-10.csv']));
    const exportCall = fetchMock.mock.calls.find(([url]) => String(url).includes('export.csv'));
    expect(String(exportCall?.[0])).toBe(
      `/api/v1/transactions/party/party-1/export.csv?${new URLSearchParams({ start_date: daysAgo(7) })}`,
    );
    expect(authHeaderOf(exportCall?.[1])).toBe('Bearer access-9');
    expect(createUrl).toHaveBeenCalledTimes(1);
  });

  it('toasts "Failed to export transactions" when the download fails', async () => {
    const toastError = vi.spyOn(toast, 'error');
    mockFetch(({ url }) =>
      url.includes('export.csv') ? new Response('', { status: 500 }) : listResponse([buildTransaction()], 1),
    );
    const user = userEvent.setup();
    renderHistory();
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await vi.waitFor(() => expect(toastError).toHaveBeenCalledWith('Failed to export transactions'));
  });

  it('shows "Error loading transactions: {message}" and tries again on request', async () => {
    let fail = true;
    mockFetch(() =>
      fail ? failure(409, 'LEDGER_RESTING', 'The ledger is resting.') : listResponse([buildTransaction()]),
    );
    const user = userEvent.setup();
    renderHistory();
    expect(await screen.findByText('Error loading transactions: The ledger is resting.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Pip added Rope (50 ft) to Party Stash')).toBeInTheDocument();
    expect(screen.queryByText(/Error loading transactions/)).not.toBeInTheDocument();
  });
});

describe('TransactionHistory: Undo (DESIGN §4)', () => {
  const me = buildUser({ id: 'user-1', username: 'aria' });
  const myMove = buildTransaction({
    id: 'move-1',
    transaction_type: 'transfer',
    transaction_summary: 'aria moved 4 × Arrow from Backpack to Quiver',
    actor_data: { id: 'user-1', name: 'aria' },
    source_location_data: { id: 'backpack', name: 'Backpack (Aria)' },
    destination_location_data: { id: 'quiver', name: 'Quiver (Aria)' },
    undoable: true,
  });
  const undoneMove = buildTransaction({
    id: 'move-2',
    transaction_type: 'party_deposit',
    transaction_summary: 'aria moved 1 × Rope from Backpack to Party Stash',
    actor_data: { id: 'user-1', name: 'aria' },
    undoable: true,
  });
  const itsUndo = buildTransaction({
    id: 'undo-2',
    transaction_type: 'party_withdraw',
    transaction_summary: 'aria undid a move: moved 1 × Rope from Party Stash to Backpack back',
    actor_data: { id: 'user-1', name: 'aria' },
    reverts_transaction_id: 'move-2',
  });
  const theirMove = buildTransaction({
    id: 'move-3',
    transaction_type: 'transfer',
    transaction_summary: 'pip moved 2 × Torch from Pack to Sack',
    actor_data: { id: 'user-2', name: 'pip' },
    undoable: true,
  });
  const myCreation = buildTransaction({ id: 'made-1', actor_data: { id: 'user-1', name: 'aria' } });
  // A GM stocking a shop writes a `transfer` too; the server says it is not a move Undo takes back.
  const myStocking = buildTransaction({
    id: 'stock-1',
    transaction_type: 'transfer',
    transaction_summary: 'aria stocked 3 × Rope in The Anvil',
    actor_data: { id: 'user-1', name: 'aria' },
    undoable: false,
  });

  it('marks my move undone when the server says so, though its undo is on another page', () => {
    const undoneElsewhere = { ...myMove, undoable: false, undone: true };
    expect(undoState(undoneElsewhere, [undoneElsewhere], 'user-1')).toBe('undone');
    expect(undoState(myMove, [myMove], 'user-1')).toBe('offer');
  });

  it('offers Undo on my own moves only, and marks a move already undone', async () => {
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: me });
    mockFetch(() => listResponse([itsUndo, myMove, undoneMove, theirMove, myCreation, myStocking]));
    renderHistory();
    const rows = await screen.findAllByTestId('history-row');
    const undoIn = (index: number) => within(rows[index] as HTMLElement).queryByTestId('history-undo');
    expect(rows.map((_, index) => undoIn(index) !== null)).toEqual([false, true, false, false, false, false]);
    expect(within(rows[2] as HTMLElement).getByTestId('history-undone')).toHaveTextContent('Undone');
    expect(undoIn(1)).toHaveAccessibleName('Undo: aria moved 4 × Arrow from Backpack to Quiver');
  });

  it('asks the server to undo the move, and says so', async () => {
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: me });
    const success = vi.spyOn(toast, 'success');
    const fetchMock = mockFetch(({ init }) =>
      init.method === 'POST'
        ? jsonResponse(200, {
            status: 'success',
            data: { success: true, message: 'Transfer undone', moved: 4 },
          })
        : listResponse([myMove]),
    );
    renderHistory();
    await userEvent.setup().click(await screen.findByTestId('history-undo'));
    await vi.waitFor(() => expect(success).toHaveBeenCalledWith('Transfer undone'));
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => String(url) === '/api/v1/transactions/move-1/undo' && init?.method === 'POST',
      ),
    ).toBe(true);
  });

  it('moves the focus to the undone entry when its Undo button goes, not to the page', async () => {
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: me });
    const reversal = buildTransaction({
      id: 'undo-1',
      transaction_type: 'transfer',
      transaction_summary: 'aria undid a move: moved 4 × Arrow from Quiver to Backpack back',
      actor_data: { id: 'user-1', name: 'aria' },
      reverts_transaction_id: 'move-1',
    });
    let undone = false;
    mockFetch(({ init }) => {
      if (init.method !== 'POST') return listResponse(undone ? [reversal, myMove] : [myMove]);
      undone = true;
      return jsonResponse(200, {
        status: 'success',
        data: { success: true, message: 'Transfer undone', moved: 4 },
      });
    });
    const user = userEvent.setup();
    renderHistory();
    const undo = await screen.findByTestId('history-undo');
    undo.focus();
    await user.keyboard('{Enter}');
    // The undo, then the list asked again: a machine busy with the whole suite takes seconds.
    const badge = await screen.findByTestId('history-undone', {}, { timeout: 15_000 });
    const row = badge.closest('li');
    expect(screen.queryByTestId('history-undo')).not.toBeInTheDocument();
    await vi.waitFor(() => expect(document.activeElement).toBe(row), { timeout: 5_000 });
    expect(row).toHaveTextContent('aria moved 4 × Arrow from Backpack to Quiver');
  }, 30_000);

  it('gives the server’s reason when the move cannot be undone', async () => {
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: me });
    const error = vi.spyOn(toast, 'error');
    mockFetch(({ init }) =>
      init.method === 'POST'
        ? failure(409, 'CONFLICT', 'Some of those items have moved on since: move them back by hand.')
        : listResponse([myMove]),
    );
    renderHistory();
    await userEvent.setup().click(await screen.findByTestId('history-undo'));
    await vi.waitFor(() =>
      expect(error).toHaveBeenCalledWith('Some of those items have moved on since: move them back by hand.'),
    );
  });
});

describe('TransactionHistory: one entry per action', () => {
  /** A deployment of a ten-line template (the shop made, then its ten lines) and a purchase, as grouped. */
  function groupedResponse() {
    const deployed = 'op-deploy';
    const bought = 'op-buy';
    const stock = Array.from({ length: 10 }, (_, i) =>
      buildTransaction({
        id: `stock-${i + 1}`,
        transaction_type: 'create',
        transaction_summary: `Ironhand Forge stocked ${i + 1} × Ware ${i + 1}`,
        actor_data: { id: 'gm-1', name: 'newgm' },
        quantity: i + 1,
        operation: deployed,
      }),
    );
    const transactions = [
      buildTransaction({
        id: 'buy-goods',
        transaction_type: 'purchase',
        transaction_summary: 'alice bought 2 × Dagger from Ironhand Forge for 4 gp',
        actor_data: { id: 'user-3', name: 'alice' },
        quantity: 2,
        amount: 400,
        currency: 'cp',
        operation: bought,
      }),
      buildTransaction({
        id: 'buy-coins',
        transaction_type: 'purchase',
        transaction_summary: 'alice paid 4 × Gold piece to Ironhand Forge for 2 × Dagger',
        actor_data: { id: 'user-3', name: 'alice' },
        quantity: 4,
        operation: bought,
      }),
      buildTransaction({
        id: 'deploy',
        transaction_type: 'container_creation',
        transaction_summary: 'newgm deployed Ironhand Forge',
        actor_data: { id: 'gm-1', name: 'newgm' },
        quantity: null,
        operation: deployed,
      }),
      ...stock,
    ];
    return jsonResponse(200, {
      status: 'success',
      data: {
        transactions,
        operations: [
          { id: bought, summary: 'alice bought 2 × Dagger from Ironhand Forge for 4 gp', size: 2 },
          {
            id: deployed,
            summary: 'newgm deployed Ironhand Forge with 10 kinds of items (55 items)',
            size: 11,
            kind: 'shop_deployment',
          },
        ],
      },
      meta: { current_page: 1, total_pages: 1, total_count: 2, per_page: 50 },
    });
  }

  it('asks for the list by action and shows a deployment and a purchase as one entry each', async () => {
    const fetchMock = mockFetch(() => groupedResponse());
    const user = userEvent.setup();
    renderHistory(50);
    const entries = await screen.findAllByTestId('history-row');
    expect(lastListQuery(fetchMock)).toMatchObject({ group: 'operation', per_page: '50' });
    expect(entries).toHaveLength(2);
    const [purchase, deployment] = entries as [HTMLElement, HTMLElement];

    expect(purchase).toHaveTextContent('alice bought 2 × Dagger from Ironhand Forge for 4 gp');
    expect(purchase).not.toHaveTextContent('alice paid 4 × Gold piece');
    expect(within(purchase).getByRole('button', { name: /^Show 1 more lines?:/ })).toHaveAttribute(
      'aria-expanded',
      'false',
    );

    expect(deployment).toHaveTextContent('newgm deployed Ironhand Forge with 10 kinds of items (55 items)');
    expect(within(deployment).queryByTestId('history-subrow')).not.toBeInTheDocument();
    const more = within(deployment).getByRole('button', { name: /^Show 10 more lines?:/ });
    expect(more).toHaveAttribute('aria-expanded', 'false');

    // From the keyboard: the ten rows behind it open, and close again.
    more.focus();
    await user.keyboard('{Enter}');
    expect(more).toHaveAttribute('aria-expanded', 'true');
    const rows = within(deployment).getAllByTestId('history-subrow');
    expect(rows).toHaveLength(10);
    expect(rows[0]).toHaveTextContent('Ironhand Forge stocked 1 × Ware 1');
    expect(document.getElementById(more.getAttribute('aria-controls') ?? '')).toContainElement(
      rows[0] as HTMLElement,
    );
    await user.keyboard(' ');
    expect(more).toHaveAttribute('aria-expanded', 'false');
    expect(within(deployment).queryByTestId('history-subrow')).not.toBeInTheDocument();
  });

  it('names each Show more by the entry it opens, so that a list of them reads apart (WCAG 2.4.6)', async () => {
    mockFetch(() => groupedResponse());
    const user = userEvent.setup();
    renderHistory(50);
    await screen.findAllByTestId('history-row');
    const more = screen.getAllByRole('button', { name: /^Show \d+ more/ });
    expect(more.map((button) => button.getAttribute('aria-label'))).toEqual([
      'Show 1 more line: alice bought 2 × Dagger from Ironhand Forge for 4 gp',
      'Show 10 more lines: newgm deployed Ironhand Forge with 10 kinds of items (55 items)',
    ]);
    // The name starts with the words shown (WCAG 2.5.3), and closing says the same of the entry.
    expect(more[1]).toHaveTextContent(/^Show 10 more$/);
    await user.click(more[1] as HTMLElement);
    expect(more[1]).toHaveAccessibleName(
      'Show fewer lines: newgm deployed Ironhand Forge with 10 kinds of items (55 items)',
    );
  });

  it('badges a deployment by its action, "Shop deployed", not by its main row, "Container created"', async () => {
    mockFetch(() => groupedResponse());
    const user = userEvent.setup();
    renderHistory(50);
    const [purchase, deployment] = (await screen.findAllByTestId('history-row')) as [
      HTMLElement,
      HTMLElement,
    ];
    const badgeOf = (entry: HTMLElement) => entry.querySelector('.mantine-Badge-root')?.textContent;
    expect(badgeOf(deployment)).toBe('Shop deployed');
    expect(deployment).not.toHaveTextContent('Container created');
    // An action without a kind keeps its main row's type; the rows behind keep their own.
    expect(badgeOf(purchase)).toBe('Purchase');
    await user.click(within(deployment).getByRole('button', { name: /^Show 10 more lines?:/ }));
    const [stocked] = within(deployment).getAllByTestId('history-subrow');
    expect(stocked && badgeOf(stocked)).toBe('Shop or loot stocked');
  });

  it('badges a loot’s deployment "Loot deployed", and a kind it does not know by the main row', async () => {
    const deploy = (id: string, name: string) =>
      buildTransaction({
        id,
        transaction_type: 'container_creation',
        transaction_summary: `newgm deployed ${name}`,
        actor_data: { id: 'gm-1', name: 'newgm' },
        quantity: null,
        operation: `op-${id}`,
      });
    mockFetch(() =>
      jsonResponse(200, {
        status: 'success',
        data: {
          transactions: [deploy('loot', 'Goblin Stash'), deploy('later', 'Sky Barge')],
          operations: [
            { id: 'op-loot', summary: 'newgm deployed Goblin Stash', size: 1, kind: 'loot_deployment' },
            { id: 'op-later', summary: 'newgm deployed Sky Barge', size: 1, kind: 'barge_deployment' },
          ],
        },
        meta: { current_page: 1, total_pages: 1, total_count: 2, per_page: 50 },
      }),
    );
    renderHistory(50);
    const [loot, later] = (await screen.findAllByTestId('history-row')) as [HTMLElement, HTMLElement];
    expect(loot.querySelector('.mantine-Badge-root')).toHaveTextContent(/^Loot deployed$/);
    expect(later.querySelector('.mantine-Badge-root')).toHaveTextContent(/^Container created$/);
  });

  it('badges a purchase request’s outcome by what became of it, not by its main row, "Purchase" or "Transfer"', async () => {
    const decided = (id: string, type: 'purchase' | 'transfer', summary: string) =>
      buildTransaction({
        id,
        transaction_type: type,
        transaction_summary: summary,
        actor_data: { id: 'gm-1', name: 'newgm' },
        operation: `op-${id}`,
      });
    const approved = 'alice bought 1 × Dagger from Ironhand Forge for 2 gp (approved by newgm)';
    const declined = 'newgm declined alice’s purchase of 1 × Rope';
    const cancelled = 'alice cancelled their request for 1 × Lantern';
    mockFetch(() =>
      jsonResponse(200, {
        status: 'success',
        data: {
          transactions: [
            decided('approved', 'purchase', approved),
            decided('declined', 'transfer', declined),
            decided('cancelled', 'transfer', cancelled),
          ],
          operations: [
            { id: 'op-approved', summary: approved, size: 1, kind: 'shop_request_approved' },
            { id: 'op-declined', summary: declined, size: 1, kind: 'shop_request_declined' },
            { id: 'op-cancelled', summary: cancelled, size: 1, kind: 'shop_request_cancelled' },
          ],
        },
        meta: { current_page: 1, total_pages: 1, total_count: 3, per_page: 50 },
      }),
    );
    renderHistory(50);
    const entries = await screen.findAllByTestId('history-row');
    expect(entries.map((entry) => entry.querySelector('.mantine-Badge-root')?.textContent)).toEqual([
      'Purchase approved',
      'Purchase declined',
      'Purchase request cancelled',
    ]);
  });

  it('with the Type filter on stock, lists the deployment’s ten stock rows behind one headline, all ten', async () => {
    const rows = Array.from({ length: 10 }, (_, i) =>
      buildTransaction({
        id: `stock-${i + 1}`,
        transaction_type: 'create',
        transaction_summary: `Ironhand Forge stocked ${i + 1} × Ware ${i + 1}`,
        actor_data: { id: 'gm-1', name: 'newgm' },
        quantity: i + 1,
        destination_location_data: { id: 'c-9', name: 'Ironhand Forge stock' },
        operation: 'op-deploy',
      }),
    );
    mockFetch(() =>
      jsonResponse(200, {
        status: 'success',
        data: {
          transactions: rows,
          operations: [
            { id: 'op-deploy', summary: 'Ironhand Forge stocked 10 kinds of items (55 items)', size: 10 },
          ],
        },
        meta: { current_page: 1, total_pages: 1, total_count: 1, per_page: 50 },
      }),
    );
    const user = userEvent.setup();
    renderHistory(50);
    const [entry] = await screen.findAllByTestId('history-row');
    if (!entry) throw new Error('one entry expected');
    expect(screen.getAllByTestId('history-row')).toHaveLength(1);
    expect(entry).toHaveTextContent('Ironhand Forge stocked 10 kinds of items (55 items)');
    expect(entry).toHaveTextContent('Shop or loot stocked');
    // The first row's own quantity is not the entry's: 55 items, not ×1.
    expect(within(entry).getAllByTestId('history-details')[0]).toHaveTextContent(/^by newgm$/);
    await user.click(within(entry).getByRole('button', { name: /^Show 10 more lines?:/ }));
    const behind = within(entry).getAllByTestId('history-subrow');
    expect(behind).toHaveLength(10);
    expect(behind[0]).toHaveTextContent('Ironhand Forge stocked 1 × Ware 1');
  });

  it('badges a character’s arrival "Joined the party", its gear behind it, each where it stayed', async () => {
    const carried = (id: string, quantity: number, item: string, where: string) =>
      buildTransaction({
        id,
        transaction_type: 'adjust',
        transaction_summary: `Nyx joined the party carrying ${quantity} × ${item}`,
        actor_data: { id: 'user-3', name: 'alice' },
        transactable_data: { id: `tpl-${id}`, name: item, item_instance_id: `ii-${id}` },
        quantity,
        source_location_data: { id: `c-${where}`, name: `${where} (Nyx)` },
        destination_location_data: { id: `c-${where}`, name: `${where} (Nyx)` },
        character_id: 'char-nyx',
        operation: 'op-join',
      });
    mockFetch(() =>
      jsonResponse(200, {
        status: 'success',
        data: {
          transactions: [
            carried('gold', 1000, 'Gold piece', 'Backpack'),
            carried('rope', 2, 'Rope', 'Pouch'),
          ],
          operations: [
            {
              id: 'op-join',
              summary: 'Nyx joined the party carrying 2 kinds of items (1,002 items)',
              size: 2,
              kind: 'joined_party',
            },
          ],
        },
        meta: { current_page: 1, total_pages: 1, total_count: 1, per_page: 50 },
      }),
    );
    const user = userEvent.setup();
    renderHistory(50);
    const [arrival] = (await screen.findAllByTestId('history-row')) as [HTMLElement];
    expect(arrival.querySelector('.mantine-Badge-root')).toHaveTextContent(/^Joined the party$/);
    expect(arrival).toHaveTextContent('Nyx joined the party carrying 2 kinds of items (1,002 items)');
    await user.click(within(arrival).getByRole('button', { name: /^Show 2 more lines?:/ }));
    const [gold, rope] = within(arrival).getAllByTestId('history-subrow') as [HTMLElement, HTMLElement];
    expect(gold).toHaveTextContent('Nyx joined the party carrying 1000 × Gold piece');
    // The gear did not move: where it is, said once, not "Backpack (Nyx) → Backpack (Nyx)".
    expect(within(gold).getByTestId('history-details')).toHaveTextContent(/^by alice · in Backpack \(Nyx\)$/);
    expect(within(rope).getByTestId('history-details')).toHaveTextContent(/^by alice · in Pouch \(Nyx\)$/);
  });
});
