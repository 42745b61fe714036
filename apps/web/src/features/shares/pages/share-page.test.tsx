import type { SharedSnapshot } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { shareKeys } from '../api/shares-api';
import { SharePage } from './share-page';

const snapshot: SharedSnapshot = {
  kind: 'character',
  title: "Thorin's inventory",
  summary: "Thorin's inventory: 3 items, 24 lbs, 1,154 gp",
  name: 'Thorin',
  subtitle: 'Level 5 Dwarf Fighter',
  totals: { items_count: 3, total_weight: 24.04, total_value_cp: 115_400 },
  sections: [
    {
      name: 'Backpack',
      more_items: 0,
      items: [
        {
          name: 'Spyglass',
          quantity: 1,
          weight: 1,
          total_weight: 1,
          value_cp: 100_000,
          total_value_cp: 100_000,
          price_cp: null,
          is_coin: false,
        },
      ],
    },
  ],
};

function renderShare(code = 'abc') {
  return renderRoutes(
    [{ path: '/discord/share/:shareCode', element: <SharePage /> }],
    `/discord/share/${code}`,
  );
}

describe('SharePage (issue 16 §3)', () => {
  it('shows what was shared, read-only, with its totals', async () => {
    const fetchMock = mockFetch(() => success(snapshot));
    renderShare('code-1');
    expect(await screen.findByRole('heading', { level: 1, name: "Thorin's inventory" })).toBeInTheDocument();
    expect(screen.getByText('Level 5 Dwarf Fighter')).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Spyglass' })).toBeInTheDocument();
    expect(screen.getByText('1,154 gp')).toBeInTheDocument();
    expect(screen.getByText('Read-only')).toBeInTheDocument();
    expect(String(fetchMock.mock.calls[0]?.[0])).toContain('/api/v1/shares/code-1');
  });

  it('shows a total clamped at the safe integer limit as at least that, beside exact stacks', async () => {
    const jewel = {
      name: 'Crown jewel',
      quantity: 10_000_000,
      weight: 0,
      total_weight: 0,
      value_cp: 900_000_000,
      total_value_cp: 9e15,
      price_cp: null,
      is_coin: false,
    };
    mockFetch(() =>
      success({
        ...snapshot,
        totals: { items_count: 110_000_000, total_weight: 0, total_value_cp: Number.MAX_SAFE_INTEGER },
        sections: [{ name: 'Backpack', more_items: 0, items: Array(11).fill(jewel) }],
      }),
    );
    renderShare();
    expect(await screen.findByText('90,071,992,547,409+ gp')).toBeInTheDocument();
    expect(screen.getAllByRole('cell', { name: '90,000,000,000,000 gp' })).toHaveLength(11);
  });

  it('counts items as the table shows them: coins apart, by their worth; rows left out as stacks', async () => {
    const row = (name: string, quantity: number, valueCp: number, isCoin = false) => ({
      name,
      quantity,
      weight: isCoin ? 0.02 : 0.5,
      total_weight: (isCoin ? 0.02 : 0.5) * quantity,
      value_cp: valueCp,
      total_value_cp: valueCp * quantity,
      price_cp: null,
      is_coin: isCoin,
    });
    // Pip: 2 Potions of Healing in one stack, and 150 gp and 400 sp: three rows, two items.
    mockFetch(() =>
      success({
        ...snapshot,
        title: "Pip Lightfoot's inventory",
        name: 'Pip Lightfoot',
        totals: { items_count: 2, total_weight: 12, total_value_cp: 29_000 },
        sections: [
          {
            name: 'Backpack',
            more_items: 3,
            items: [
              row('Potion of Healing', 2, 5000),
              row('Gold piece', 150, 100, true),
              row('Silver piece', 400, 10, true),
            ],
          },
        ],
      } satisfies SharedSnapshot),
    );
    renderShare();
    expect(await screen.findAllByRole('row')).toHaveLength(4);
    const items = screen.getByText('Items').parentElement as HTMLElement;
    expect(within(items).getByText('2 items')).toBeInTheDocument();
    expect(within(items).getByText('plus 190 gp in coins')).toBeInTheDocument();
    expect(screen.getByText('and 3 stacks more')).toBeInTheDocument();
  });

  it('gives worth to the copper and weight to the hundredth, as the rest of the app does', async () => {
    const coin = (name: string, quantity: number, valueCp: number) => ({
      name,
      quantity,
      weight: 0.02,
      // The server's stack weight is in tenths; the page works it out from the each, as the app does.
      total_weight: Math.round(0.02 * quantity * 10) / 10,
      value_cp: valueCp,
      total_value_cp: valueCp * quantity,
      price_cp: null,
      is_coin: true,
    });
    mockFetch(() =>
      success({
        ...snapshot,
        totals: { items_count: 0, total_weight: 40.52, total_value_cp: 10_297 },
        sections: [
          {
            name: 'Backpack',
            more_items: 0,
            items: [coin('Gold piece', 90, 100), coin('Silver piece', 129, 10), coin('Copper piece', 7, 1)],
          },
        ],
      } satisfies SharedSnapshot),
    );
    renderShare();
    const silver = (await screen.findByRole('cell', { name: 'Silver piece' })).closest('tr');
    if (!silver) throw new Error('no row');
    expect(within(silver).getByRole('cell', { name: '12 gp 9 sp' })).toBeInTheDocument();
    expect(within(silver).getByRole('cell', { name: '2.58 lbs' })).toBeInTheDocument();
    const copper = screen.getByRole('cell', { name: 'Copper piece' }).closest('tr');
    if (!copper) throw new Error('no row');
    expect(within(copper).getByRole('cell', { name: '0.14 lbs' })).toBeInTheDocument();
    const items = screen.getByText('Items').parentElement as HTMLElement;
    expect(within(items).getByText('plus 102 gp 9 sp 7 cp in coins')).toBeInTheDocument();
    expect(screen.getByText('40.52 lbs')).toBeInTheDocument();
    // The Value total, exact too.
    expect(screen.getByText('102 gp 9 sp 7 cp')).toBeInTheDocument();
  });

  it('says an item the SRD gives no price is Unpriced, not 0 cp, unless a shop prices it', async () => {
    const unpriced = {
      name: 'Bag of Holding',
      quantity: 1,
      weight: 15,
      total_weight: 15,
      value_cp: 0,
      total_value_cp: 0,
      price_cp: null,
      is_coin: false,
      is_unpriced: true,
    };
    mockFetch(() =>
      success({ ...snapshot, sections: [{ name: 'Backpack', more_items: 0, items: [unpriced] }] }),
    );
    const { unmount } = renderShare('code-unpriced');
    const row = (await screen.findByRole('cell', { name: 'Bag of Holding' })).closest('tr');
    if (!row) throw new Error('no row');
    expect(within(row).getByRole('cell', { name: 'Unpriced' })).toBeInTheDocument();
    unmount();

    mockFetch(() =>
      success({
        ...snapshot,
        kind: 'shop',
        description: '',
        shop_type_name: 'Magic shop',
        location: 'Waterdeep',
        is_open: true,
        sections: [{ name: 'Wares', more_items: 0, items: [{ ...unpriced, price_cp: 50_000 }] }],
      }),
    );
    renderShare('code-shop');
    const shopRow = (await screen.findByRole('cell', { name: 'Bag of Holding' })).closest('tr');
    if (!shopRow) throw new Error('no row');
    expect(within(shopRow).queryByRole('cell', { name: 'Unpriced' })).not.toBeInTheDocument();
    expect(within(shopRow).getByRole('cell', { name: '500 gp' })).toBeInTheDocument();
  });

  it('names a shop’s location as the app does: "Main Street", not the key; a GM’s own as written', async () => {
    const shop = (location: string): SharedSnapshot => ({
      ...snapshot,
      kind: 'shop',
      description: '',
      shop_type_name: 'General Store',
      location,
      is_open: true,
    });
    mockFetch(() => success(shop('main_street')));
    const { unmount } = renderShare('code-street');
    expect(await screen.findByText('General Store · Main Street')).toBeInTheDocument();
    unmount();

    mockFetch(() => success(shop('Under the bridge')));
    renderShare('code-bridge');
    expect(await screen.findByText('General Store · Under the bridge')).toBeInTheDocument();
  });

  it('totals a shop’s stock at the shop’s prices, as a buyer would pay', async () => {
    const rope = {
      name: 'Silk rope',
      quantity: 4,
      weight: 5,
      total_weight: 20,
      value_cp: 1234,
      total_value_cp: 4936,
      price_cp: 1234,
      is_coin: false,
    };
    mockFetch(() =>
      success({
        ...snapshot,
        kind: 'shop',
        description: '',
        shop_type_name: 'General Store',
        location: 'Waterdeep',
        is_open: true,
        totals: { items_count: 4, total_weight: 20, total_value_cp: 4936 },
        sections: [{ name: 'Wares', more_items: 0, items: [rope] }],
      }),
    );
    renderShare('code-shop-total');
    expect(await screen.findByText('Stock at shop prices')).toBeInTheDocument();
    expect(screen.queryByText('Stock value')).not.toBeInTheDocument();
    expect(screen.getByText('49 gp 3 sp 6 cp')).toBeInTheDocument();
  });

  it('says nothing of coins when there are none', async () => {
    mockFetch(() => success(snapshot));
    renderShare();
    const items = (await screen.findByText('Items')).parentElement as HTMLElement;
    expect(within(items).getByText('3 items')).toBeInTheDocument();
    expect(within(items).queryByText(/coins/)).not.toBeInTheDocument();
  });

  it('says clearly when the link is unknown or revoked', async () => {
    mockFetch(() =>
      failure(404, 'RESOURCE_NOT_FOUND', 'This share link does not exist or has been revoked.'),
    );
    renderShare();
    expect(await screen.findByRole('heading', { name: 'Share link not found' })).toBeInTheDocument();
    expect(screen.getByText('This share link does not exist or has been revoked.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Haversack' })).toHaveAttribute('href', '/home');
  });

  it('offers to try again when the server fails', async () => {
    mockFetch(() => failure(500, 'INTERNAL_SERVER_ERROR', 'boom'));
    renderShare();
    // One retry first (a server error may pass), then the error panel.
    expect(await screen.findByText('Could not load this share', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });

  it('keeps what was shared on screen when a refresh fails, with a note; a link revoked meanwhile ends it', async () => {
    let answer: 'shared' | 'offline' | 'revoked' = 'shared';
    mockFetch(() => {
      if (answer === 'offline') throw new TypeError('Failed to fetch');
      if (answer === 'revoked')
        return failure(404, 'RESOURCE_NOT_FOUND', 'This share link does not exist or has been revoked.');
      return success(snapshot);
    });
    const { queryClient } = renderShare('code-1');
    expect(await screen.findByRole('heading', { level: 1, name: "Thorin's inventory" })).toBeInTheDocument();
    answer = 'offline';
    await queryClient.refetchQueries({ queryKey: shareKeys.snapshot('code-1') });
    await waitFor(() => expect(screen.getByTestId('refresh-failed-note')).toBeVisible(), { timeout: 5_000 });
    expect(screen.getByRole('heading', { level: 1, name: "Thorin's inventory" })).toBeInTheDocument();
    expect(screen.queryByText('Could not load this share')).not.toBeInTheDocument();
    answer = 'revoked';
    await queryClient.refetchQueries({ queryKey: shareKeys.snapshot('code-1') });
    expect(
      await screen.findByRole('heading', { name: 'Share link not found' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
  }, 20_000);
});
