import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { lootKeys } from '../../loot/api/loot-api';
import { buildShopInstance } from '../test/shop-fixtures';
import { TradeDialog, type TradeOffer } from './trade-dialog';
import { splitShares } from './trade-dialog-split';

/** Issue 11 §8: the GM shares a sale's proceeds among the party's characters. */

const offer: TradeOffer = {
  side: 'sell',
  shopId: 'shop-1',
  shopName: 'General Store',
  itemId: 'gem-1',
  name: 'Gem',
  max: 1,
  unitCp: 1001,
  characterId: 'character-gm',
  containerId: 'container-gm',
};

const characters = [
  buildCharacter({ id: 'c-aria', name: 'Aria', party_id: 'party-1', is_owner: false }),
  buildCharacter({ id: 'c-bram', name: 'Bram', party_id: 'party-1', is_owner: false }),
  buildCharacter({ id: 'c-cole', name: 'Cole', party_id: 'party-1', is_owner: false }),
];

const purse = (over: Partial<Record<'cp' | 'sp' | 'ep' | 'gp' | 'pp', number>> = {}) => ({
  cp: 0,
  sp: 0,
  ep: 0,
  gp: 0,
  pp: 0,
  ...over,
});

const splitMessage = 'Sale complete: 10 gp 1 cp split among Aria (5 gp 1 cp) and Bram (5 gp).';

function mockShop(options: { gm?: boolean; sell?: () => Response; characters?: () => Response } = {}) {
  return mockFetch(({ url, init }) => {
    const { pathname, searchParams } = new URL(url, 'http://test');
    if (init.method !== 'POST' && pathname === '/api/v1/shop_instances/shop-1')
      return success(buildShopInstance());
    if (pathname === '/api/v1/parties/party-1')
      return success(
        buildParty({ is_gm: options.gm ?? true, user_role: options.gm === false ? 'player' : 'gm' }),
      );
    if (pathname === '/api/v1/characters' && searchParams.get('party_id') === 'party-1') {
      return (
        options.characters?.() ??
        jsonResponse(200, { status: 'success', data: characters, meta: pageMeta(characters.length, 100) })
      );
    }
    if (pathname.includes('/calculate_sell_price/')) {
      const quantity = Number(searchParams.get('quantity'));
      return success({
        item_instance_id: 'gem-1',
        name: 'Gem',
        quantity,
        unit_price_cp: 1001,
        total_price_cp: 1001 * quantity,
        formatted: '',
        has_own_price: false,
        discount_rate: 0,
        modifier: 1,
      });
    }
    if (init.method === 'POST' && pathname === '/api/v1/shop_instances/shop-1/sell') {
      return (
        options.sell?.() ??
        jsonResponse(200, {
          status: 'success',
          message: splitMessage,
          data: {
            kind: 'sale',
            message: splitMessage,
            quantity: 1,
            unit_price_cp: 1001,
            total_price_cp: 1001,
            paid: purse(),
            change: purse(),
            received: purse({ gp: 10, cp: 1 }),
            item_instances: [],
            transaction_ids: ['t-1'],
          },
        })
      );
    }
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
}

const sellBody = (fetchMock: ReturnType<typeof mockFetch>) => {
  const call = fetchMock.mock.calls.find(
    ([url, init]) => init?.method === 'POST' && String(url).endsWith('/sell'),
  );
  return call?.[1]?.body === undefined ? undefined : JSON.parse(String(call[1].body));
};

describe('splitShares', () => {
  it('deals the odd copper to the first chosen, as the server does', () => {
    expect(splitShares(1001, 3)).toEqual([334, 334, 333]);
    expect(splitShares(1001, 2)).toEqual([501, 500]);
    expect(splitShares(5, 0)).toEqual([]);
  });
});

describe('TradeDialog: split the proceeds', () => {
  it('lets the GM share a sale among the characters they choose, and toasts how it was split', async () => {
    const fetchMock = mockShop();
    const onClose = vi.fn();
    const user = userEvent.setup();
    const { queryClient } = renderWithProviders(<TradeDialog offer={offer} onClose={onClose} />);
    queryClient.setQueryData(lootKeys.summary('party-1'), []);
    const dialog = await screen.findByRole('dialog', { name: 'Sell Gem' });
    const toggle = await within(dialog).findByRole('switch', { name: /Split the proceeds/ });
    expect(toggle).not.toBeChecked();
    await user.click(toggle);

    // Every character of the party is chosen at first, each with their share of 1001 cp.
    const boxes = await within(dialog).findAllByRole('checkbox');
    expect(boxes.map((b) => b.getAttribute('value'))).toEqual(['c-aria', 'c-bram', 'c-cole']);
    expect(boxes.every((b) => (b as HTMLInputElement).checked)).toBe(true);
    expect(
      within(dialog)
        .getAllByTestId('trade-split-share')
        .map((s) => s.textContent),
    ).toEqual(['3 gp 3 sp 4 cp', '3 gp 3 sp 4 cp', '3 gp 3 sp 3 cp']);
    expect(within(dialog).getByText('The characters receive')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('checkbox', { name: 'Cole' }));
    expect(
      within(dialog)
        .getAllByTestId('trade-split-share')
        .map((s) => s.textContent),
    ).toEqual(['5 gp 1 cp', '5 gp', '—']);
    await user.click(within(dialog).getByRole('button', { name: 'Sell and split 10 gp 1 cp' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sellBody(fetchMock)).toEqual({
      sell: {
        item_instance_id: 'gem-1',
        quantity: 1,
        seller_character_id: 'character-gm',
        seller_container_id: 'container-gm',
        split_among: ['c-aria', 'c-bram'],
      },
    });
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({ kind: 'success', message: splitMessage });
    // The party's Loot received now counts the shares.
    await vi.waitFor(() =>
      expect(queryClient.getQueryState(lootKeys.summary('party-1'))?.isInvalidated).toBe(true),
    );
  }, 20_000);

  it('cannot sell while nobody is chosen, and sells as usual with the switch off', async () => {
    const fetchMock = mockShop({
      sell: () =>
        success({
          kind: 'sale',
          message: 'Sale complete',
          quantity: 1,
          unit_price_cp: 1001,
          total_price_cp: 1001,
          paid: purse(),
          change: purse(),
          received: purse({ pp: 1, cp: 1 }),
          item_instances: [],
          transaction_ids: ['t-1'],
        }),
    });
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<TradeDialog offer={offer} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Sell Gem' });
    const toggle = await within(dialog).findByRole('switch', { name: /Split the proceeds/ });
    await user.click(toggle);
    for (const name of ['Aria', 'Bram', 'Cole']) {
      await user.click(await within(dialog).findByRole('checkbox', { name }));
    }
    expect(within(dialog).getByText('Choose at least one character')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Sell and split 10 gp 1 cp' })).toBeDisabled();

    await user.click(toggle);
    await user.click(within(dialog).getByRole('button', { name: 'Sell for 10 gp 1 cp' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sellBody(fetchMock).sell).not.toHaveProperty('split_among');
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
      kind: 'success',
      message: 'Sale complete: 1 × Gem for 10 gp 1 cp.',
    });
  }, 20_000);

  it('shows the server’s reason when a split is refused, in the dialog only', async () => {
    mockShop({ sell: () => failure(403, 'FORBIDDEN', 'Only the GM can split the proceeds of a sale.') });
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<TradeDialog offer={offer} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Sell Gem' });
    await user.click(await within(dialog).findByRole('switch', { name: /Split the proceeds/ }));
    await within(dialog).findAllByRole('checkbox');
    await user.click(within(dialog).getByRole('button', { name: 'Sell and split 10 gp 1 cp' }));
    expect(await within(dialog).findByTestId('trade-error')).toHaveTextContent(
      'Only the GM can split the proceeds of a sale.',
    );
    // An error shows once: in the dialog, not in a toast as well.
    expect(useUiStore.getState().toasts.map((t) => t.message)).not.toContain(
      'Only the GM can split the proceeds of a sale.',
    );
    expect(onClose).not.toHaveBeenCalled();
  }, 20_000);

  it('offers a way back when the characters cannot be loaded', async () => {
    let fail = true;
    mockShop({
      characters: () =>
        fail
          ? failure(500, 'INTERNAL_SERVER_ERROR', 'boom')
          : jsonResponse(200, { status: 'success', data: characters, meta: pageMeta(3, 100) }),
    });
    const user = userEvent.setup();
    renderWithProviders(<TradeDialog offer={offer} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Sell Gem' });
    await user.click(await within(dialog).findByRole('switch', { name: /Split the proceeds/ }));
    const alert = await within(dialog).findByRole('alert', {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent('Characters could not be loaded');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await within(dialog).findAllByRole('checkbox')).toHaveLength(3);
  }, 20_000);

  it('keeps the characters to choose from when their refresh fails, with a note', async () => {
    let connected = true;
    mockShop({
      characters: () => {
        if (!connected) throw new TypeError('Failed to fetch');
        return jsonResponse(200, { status: 'success', data: characters, meta: pageMeta(3, 100) });
      },
    });
    const user = userEvent.setup();
    const { queryClient } = renderWithProviders(<TradeDialog offer={offer} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Sell Gem' });
    await user.click(await within(dialog).findByRole('switch', { name: /Split the proceeds/ }));
    expect(await within(dialog).findAllByRole('checkbox')).toHaveLength(3);
    connected = false;
    await queryClient.refetchQueries({ queryKey: ['characters', 'party'] });
    await waitFor(() => expect(within(dialog).getByTestId('refresh-failed-note')).toBeVisible(), {
      timeout: 5_000,
    });
    expect(within(dialog).getAllByRole('checkbox')).toHaveLength(3);
    expect(within(dialog).queryByText('Characters could not be loaded')).not.toBeInTheDocument();
  }, 20_000);

  it('offers no split to players, nor when buying', async () => {
    const fetchMock = mockShop({ gm: false });
    const { unmount } = renderWithProviders(<TradeDialog offer={offer} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Sell Gem' });
    expect(await within(dialog).findByRole('button', { name: 'Sell for 10 gp 1 cp' })).toBeEnabled();
    // Once the party has answered (a player here), still no switch.
    await vi.waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/parties/party-1'))).toBe(true),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(within(dialog).getByText('You receive')).toBeInTheDocument();
    expect(within(dialog).queryByRole('switch')).not.toBeInTheDocument();
    unmount();

    mockShop({ gm: true });
    renderWithProviders(<TradeDialog offer={{ ...offer, side: 'buy' }} onClose={() => undefined} />);
    const buy = await screen.findByRole('dialog', { name: 'Buy Gem' });
    await within(buy).findByText('Total to pay');
    expect(within(buy).queryByRole('switch')).not.toBeInTheDocument();
  }, 20_000);
});
