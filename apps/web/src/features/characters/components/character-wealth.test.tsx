import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { wealthKeys } from '../api/wealth-api';
import { buildCharacterWealth } from '../test/wealth-fixtures';
import { CharacterWealthPanel, CharacterWealthStrip, PurseCoins, purseLabel } from './character-wealth';

const rich = buildCharacterWealth({
  coins: { cp: 50, sp: 7, ep: 0, gp: 1_215, pp: 1 },
  coins_value_cp: 50 + 70 + 121_500 + 1_000,
  items_value_cp: 4_004,
  total_value_cp: 126_624,
  carried_weight: 45.5,
  max_weight: 60,
  encumbrance: 'heavily_encumbered',
});

function mockWealth(answer: () => Response) {
  return mockFetch(({ url }) => {
    const { pathname } = new URL(url, 'http://test');
    if (pathname === '/api/v1/characters/char-1/wealth') return answer();
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
}

describe('purseLabel', () => {
  it('names the coins largest first, thousands grouped, and says Empty for none', () => {
    expect(purseLabel(rich.coins)).toBe('1 pp 1,215 gp 7 sp 50 cp');
    expect(purseLabel({ cp: 0, sp: 0, ep: 0, gp: 0, pp: 0 })).toBe('Empty');
  });
});

describe('PurseCoins', () => {
  it('never breaks a count across lines: the coins wrap instead', () => {
    renderWithProviders(<PurseCoins coins={{ pp: 0, gp: 10_000_500, ep: 0, sp: 0, cp: 0 }} />);
    const gold = screen.getByTestId('purse-gp');
    expect(within(gold).getByText('10,000,500')).toHaveStyle({ whiteSpace: 'nowrap' });
  });
});

describe('CharacterWealthPanel', () => {
  it('shows the purse, the wealth in gp with coins and items, and the load with its encumbrance', async () => {
    mockWealth(() => success(rich));
    renderWithProviders(<CharacterWealthPanel characterId="char-1" />);
    const panel = screen.getByRole('region', { name: 'Purse and load' });
    expect(within(panel).getByTestId('character-wealth-loading')).toBeInTheDocument();

    const coins = await within(panel).findByRole('list', { name: 'Coins' });
    expect(
      within(coins)
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('aria-label')),
    ).toEqual(['1 platinum', '1,215 gold', '0 electrum', '7 silver', '50 copper']);
    expect(within(panel).getByTestId('wealth-total-value')).toHaveTextContent(/^1,266 gp 2 sp 4 cp$/);
    expect(within(panel).getByText('Coins 1,226 gp 2 sp · Items 40 gp 4 cp')).toBeInTheDocument();
    expect(within(panel).getByTestId('load-amount')).toHaveTextContent('45.5 / 60 lbs');
    expect(within(panel).getByTestId('encumbrance-badge')).toHaveTextContent('Heavily encumbered');
    expect(within(panel).getByText(/Speed drops by 20 feet/)).toBeInTheDocument();
    const bar = within(panel).getByRole('progressbar', { name: /^Load: / });
    expect(bar).toHaveAttribute('aria-valuenow', '75.8');
  });

  it('gives the coins and the items to the copper, so that they add up to the wealth', async () => {
    // 185 gp 7 sp of coins and 70 gp 7 sp 6 cp of items read "256 gp" over "185 gp · 70 gp" in whole gp.
    mockWealth(() =>
      success(
        buildCharacterWealth({ coins_value_cp: 18_570, items_value_cp: 7_076, total_value_cp: 25_646 }),
      ),
    );
    renderWithProviders(<CharacterWealthPanel characterId="char-1" />);
    const panel = screen.getByRole('region', { name: 'Purse and load' });
    expect(await within(panel).findByTestId('wealth-total-value')).toHaveTextContent(/^256 gp 4 sp 6 cp$/);
    expect(within(panel).getByText('Coins 185 gp 7 sp · Items 70 gp 7 sp 6 cp')).toBeInTheDocument();
  });

  it('shows a worth clamped at the safe integer limit as at least that, in whole gp', async () => {
    const max = Number.MAX_SAFE_INTEGER;
    mockWealth(() =>
      success(buildCharacterWealth({ coins_value_cp: 500, items_value_cp: max, total_value_cp: max })),
    );
    renderWithProviders(<CharacterWealthPanel characterId="char-1" />);
    const panel = screen.getByRole('region', { name: 'Purse and load' });
    expect(await within(panel).findByTestId('wealth-total-value')).toHaveTextContent(
      '90,071,992,547,409+ gp',
    );
    expect(within(panel).getByText('Coins 5 gp · Items 90,071,992,547,409+ gp')).toBeInTheDocument();
  });

  it('says there is no limit or that the party does not track weight, without a bar', async () => {
    mockWealth(() =>
      success(buildCharacterWealth({ max_weight: null, encumbrance: null, carried_weight: 12 })),
    );
    const { unmount } = renderWithProviders(<CharacterWealthPanel characterId="char-1" />);
    expect(await screen.findByTestId('encumbrance-badge')).toHaveTextContent('No weight limit');
    expect(screen.getByTestId('load-amount')).toHaveTextContent('12 lbs');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    // An empty purse still shows its five coins, and wealth below a gold piece is not "0 gp".
    expect(screen.getAllByRole('listitem')).toHaveLength(5);
    expect(screen.getByTestId('wealth-total-value')).toHaveTextContent('0 gp');
    unmount();

    mockWealth(() =>
      success(buildCharacterWealth({ weight_tracked: false, encumbrance: null, total_value_cp: 50 })),
    );
    renderWithProviders(<CharacterWealthPanel characterId="char-1" />);
    expect(await screen.findByTestId('encumbrance-badge')).toHaveTextContent('Weight not tracked');
    expect(screen.getByTestId('wealth-total-value')).toHaveTextContent('5 sp');
  });

  it('shows an error with Try Again, then the wealth once the server answers', async () => {
    let calls = 0;
    mockWealth(() => {
      calls += 1;
      return calls === 1 ? failure(403, 'FORBIDDEN', 'No.') : success(rich);
    });
    renderWithProviders(<CharacterWealthPanel characterId="char-1" />);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Unable to Load Wealth')).toBeInTheDocument();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByTestId('wealth-total-value')).toHaveTextContent('1,266 gp 2 sp 4 cp');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('CharacterWealthStrip', () => {
  it('sums up the purse, the wealth and the load in one line', async () => {
    mockWealth(() => success(rich));
    renderWithProviders(<CharacterWealthStrip characterId="char-1" />);
    expect(screen.getByTestId('wealth-strip-loading')).toBeInTheDocument();
    const strip = await screen.findByTestId('wealth-strip');
    expect(within(strip).getByTestId('wealth-strip-purse')).toHaveTextContent('1 pp 1,215 gp 7 sp 50 cp');
    expect(strip).toHaveTextContent('Wealth 1,266 gp');
    expect(strip).toHaveTextContent('Load 45.5 / 60 lbs');
    expect(within(strip).getByTestId('encumbrance-badge')).toHaveTextContent('Heavily encumbered');
  });

  it('says the wealth to the copper, as the character page does: never a smaller figure', async () => {
    // 1,266 gp 2 sp 4 cp on the character page read "Wealth 1,266 gp" on its inventory page, and 15 cp
    // "15 cp" beside the page's "1 sp 5 cp".
    mockWealth(() => success(rich));
    const { unmount } = renderWithProviders(<CharacterWealthStrip characterId="char-1" />);
    expect(await screen.findByTestId('wealth-strip')).toHaveTextContent(/Wealth 1,266 gp 2 sp 4 cp\s*Load/);
    unmount();
    mockWealth(() => success(buildCharacterWealth({ items_value_cp: 15, total_value_cp: 15 })));
    renderWithProviders(<CharacterWealthStrip characterId="char-1" />);
    expect(await screen.findByTestId('wealth-strip')).toHaveTextContent(/Wealth 1 sp 5 cp\s*Load/);
  });

  it('gives an untracked load without its max weight, on the page and in the strip', async () => {
    // Review (coins, 9): weight not tracked, yet "/ 50 lbs" and a full bar.
    const untracked = buildCharacterWealth({
      carried_weight: 6_173.24,
      max_weight: 50,
      weight_tracked: false,
      encumbrance: null,
    });
    mockWealth(() => success(untracked));
    const { unmount } = renderWithProviders(<CharacterWealthPanel characterId="char-1" />);
    const load = await screen.findByTestId('wealth-load');
    expect(within(load).getByTestId('load-amount')).toHaveTextContent(/^6,173.24 lbs$/);
    expect(within(load).getByTestId('encumbrance-badge')).toHaveTextContent('Weight not tracked');
    expect(within(load).queryByRole('progressbar')).not.toBeInTheDocument();
    unmount();

    renderWithProviders(<CharacterWealthStrip characterId="char-1" />);
    const strip = await screen.findByTestId('wealth-strip');
    expect(strip).toHaveTextContent('Load 6,173.24 lbs');
    expect(strip).not.toHaveTextContent('/ 50');
  });

  it('says when the wealth could not be loaded and retries on demand', async () => {
    let calls = 0;
    mockWealth(() => {
      calls += 1;
      return calls === 1 ? failure(404, 'RESOURCE_NOT_FOUND', 'Character not found.') : success(rich);
    });
    renderWithProviders(<CharacterWealthStrip characterId="char-1" />);
    const error = await screen.findByTestId('wealth-strip-error');
    expect(error).toHaveTextContent('Wealth could not be loaded.');
    await userEvent.click(within(error).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByTestId('wealth-strip')).toBeInTheDocument();
  });
});

describe('the wealth on a slow or dropped connection', () => {
  it('keeps the last count in the panel and in the strip when a recount fails, with a note', async () => {
    let connected = true;
    mockWealth(() => {
      if (!connected) throw new TypeError('Failed to fetch');
      return success(rich);
    });
    const panel = renderWithProviders(<CharacterWealthPanel characterId="char-1" />);
    expect(await screen.findByTestId('wealth-total-value')).toHaveTextContent('1,266 gp 2 sp 4 cp');
    connected = false;
    await panel.queryClient.refetchQueries({ queryKey: wealthKeys.character('char-1') });
    await waitFor(() => expect(screen.getByTestId('refresh-failed-note')).toBeVisible(), { timeout: 5_000 });
    expect(screen.getByTestId('wealth-total-value')).toHaveTextContent('1,266 gp 2 sp 4 cp');
    expect(screen.queryByText('Unable to Load Wealth')).not.toBeInTheDocument();
    panel.unmount();

    connected = true;
    const strip = renderWithProviders(<CharacterWealthStrip characterId="char-1" />);
    const line = await screen.findByTestId('wealth-strip');
    connected = false;
    await strip.queryClient.refetchQueries({ queryKey: wealthKeys.character('char-1') });
    await waitFor(() => expect(within(line).getByTestId('refresh-failed-note')).toBeVisible(), {
      timeout: 5_000,
    });
    expect(within(line).getByTestId('wealth-strip-purse')).toHaveTextContent('1 pp 1,215 gp 7 sp 50 cp');
  }, 20_000);
});
