import { CURRENCY_TAG, type ShopInstance, shopMessages } from '@haversack/contracts';
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { theme } from '../../../app/theme';
import { pickContainerByTyping } from '../../../test/container-picker';
import { jsonResponse, mockFetch } from '../../../test/fixtures';
import { pageMeta } from '../../../test/party-fixtures';
import { buildContainer, buildItem, renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { ariasPack, buildShopInstance, buildStockItem, buildTrader } from '../test/shop-fixtures';
import { SellList, ShopStockList, shelfLines, TraderPanel } from './shop-trading';

const trader = buildTrader();

/** The shop with one stack of each named item (a Sack does not stack: it is one of one). */
function shopWith(...names: string[]): ShopInstance {
  const shop = buildShopInstance();
  const stock = names.map((name, index) =>
    buildStockItem({ id: `stock-${name}`, name, item_template_id: `template-${name}`, quantity: 1 + index }),
  );
  return { ...shop, container: { ...shop.container, item_instances: stock } };
}

const wrapper = ({ children }: { children: ReactNode }) => (
  <MantineProvider env="test" theme={theme}>
    {children}
  </MantineProvider>
);

describe('TraderPanel', () => {
  it('says my containers failed to load, with Try Again, rather than that I have no character', async () => {
    const retry = vi.fn();
    render(
      <TraderPanel trader={{ ...trader, isError: true, hasCharacter: false, container: null, retry }} />,
      {
        wrapper,
      },
    );
    expect(screen.getByTestId('error-panel')).toHaveTextContent('Failed to load your containers');
    expect(screen.queryByTestId('cannot-trade')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(retry).toHaveBeenCalledTimes(1);
  });
});

describe('TraderPanel with many containers', () => {
  it('finds the container to pay from by typing, grouped by character, for the keyboard to pick', async () => {
    const quiver = buildContainer({
      id: 'c-quiver',
      name: 'Quiver',
      owner: { type: 'character', id: 'ch-aria', name: 'Aria' },
    });
    const saddlebag = buildContainer({
      id: 'c-saddlebag',
      name: 'Saddlebag',
      owner: { type: 'character', id: 'ch-brom', name: 'Brom' },
    });
    const choose = vi.fn();
    render(<TraderPanel trader={{ ...trader, containers: [ariasPack, quiver, saddlebag], choose }} />, {
      wrapper,
    });
    await pickContainerByTyping(userEvent.setup(), {
      label: 'Pay from and carry into',
      groups: ['Aria', 'Brom'],
      typed: 'saddle',
      matching: ['Saddlebag (Brom)'],
    });
    expect(choose).toHaveBeenCalledWith('c-saddlebag');
  });
});

describe('shelfLines', () => {
  it('puts stacks of one item and price on one line, but one with its own weight or value on its own', () => {
    const plain = [
      buildStockItem({
        id: 'sword-1',
        name: 'Longsword',
        quantity: 1,
        weight: 3,
        value_cp: 1500,
        buy_price_cp: 1500,
      }),
      buildStockItem({
        id: 'sword-2',
        name: 'Longsword',
        quantity: 1,
        weight: 3,
        value_cp: 1500,
        buy_price_cp: 1500,
      }),
    ];
    const heavy = buildStockItem({
      id: 'sword-3',
      name: 'Longsword',
      quantity: 1,
      weight: 500,
      value_cp: 9_000_000,
      buy_price_cp: 1500,
    });
    const lines = shelfLines([...plain, heavy]);
    expect(lines.map((line) => [line.item.id, line.inStock])).toEqual([
      ['sword-1', 2],
      ['sword-3', 1],
    ]);
  });
});

describe('ShopStockList', () => {
  it('keeps focus in the list when the row that had it is bought out', async () => {
    const user = userEvent.setup();
    const onBuy = vi.fn();
    const view = render(
      <ShopStockList
        shop={shopWith('Arrow', 'Sack', 'Rope')}
        trader={trader}
        tradeOpen={false}
        onBuy={onBuy}
      />,
      {
        wrapper,
      },
    );
    await user.click(screen.getByRole('button', { name: 'Buy Sack' }));
    expect(onBuy).toHaveBeenCalledWith(expect.objectContaining({ itemId: 'stock-Sack' }));
    expect(screen.getByRole('button', { name: 'Buy Sack' })).toHaveFocus();

    // A stack still there keeps its focus.
    view.rerender(
      <ShopStockList
        shop={shopWith('Arrow', 'Sack', 'Rope')}
        trader={trader}
        tradeOpen={false}
        onBuy={onBuy}
      />,
    );
    expect(screen.getByRole('button', { name: 'Buy Sack' })).toHaveFocus();

    // The last Sack is gone: the Buy button now in its place.
    view.rerender(
      <ShopStockList shop={shopWith('Arrow', 'Rope')} trader={trader} tradeOpen={false} onBuy={onBuy} />,
    );
    expect(screen.getByRole('button', { name: 'Buy Rope' })).toHaveFocus();

    // The last row: the one before it.
    view.rerender(<ShopStockList shop={shopWith('Arrow')} trader={trader} tradeOpen={false} onBuy={onBuy} />);
    expect(screen.getByRole('button', { name: 'Buy Arrow' })).toHaveFocus();

    // Nothing left: the list's empty state.
    view.rerender(<ShopStockList shop={shopWith()} trader={trader} tradeOpen={false} onBuy={onBuy} />);
    expect(screen.getByTestId('shop-stock-empty')).toHaveFocus();
  });

  it('brings focus back from the trade dialog to the row that opened it, or the next one', async () => {
    const user = userEvent.setup();
    const list = (open: boolean, ...names: string[]) => (
      <ShopStockList shop={shopWith(...names)} trader={trader} tradeOpen={open} onBuy={() => undefined} />
    );
    const view = render(list(false, 'Arrow', 'Sack', 'Rope'), { wrapper });
    await user.click(screen.getByRole('button', { name: 'Buy Arrow' }));
    // The dialog takes focus, and its button loses it while the purchase is under way.
    view.rerender(list(true, 'Arrow', 'Sack', 'Rope'));
    screen.getByRole('button', { name: 'Buy Arrow' }).blur();
    view.rerender(list(false, 'Arrow', 'Sack', 'Rope'));
    expect(screen.getByRole('button', { name: 'Buy Arrow' })).toHaveFocus();

    // The last Sack bought: the row is gone by the time the dialog closes.
    await user.click(screen.getByRole('button', { name: 'Buy Sack' }));
    view.rerender(list(true, 'Arrow', 'Sack', 'Rope'));
    screen.getByRole('button', { name: 'Buy Sack' }).blur();
    view.rerender(list(true, 'Arrow', 'Rope'));
    expect(document.body).toHaveFocus();
    view.rerender(list(false, 'Arrow', 'Rope'));
    expect(screen.getByRole('button', { name: 'Buy Rope' })).toHaveFocus();
  });

  it('leaves focus alone when the user moved it elsewhere', async () => {
    const user = userEvent.setup();
    const view = render(
      <>
        <button type="button">Elsewhere</button>
        <ShopStockList
          shop={shopWith('Arrow', 'Sack')}
          trader={trader}
          tradeOpen={false}
          onBuy={() => undefined}
        />
      </>,
      { wrapper },
    );
    await user.click(screen.getByRole('button', { name: 'Buy Sack' }));
    await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
    view.rerender(
      <>
        <button type="button">Elsewhere</button>
        <ShopStockList shop={shopWith('Arrow')} trader={trader} tradeOpen={false} onBuy={() => undefined} />
      </>,
    );
    expect(screen.getByRole('button', { name: 'Elsewhere' })).toHaveFocus();
  });
});

describe('ShopStockList: an unpriced line', () => {
  /** A Bag of Holding on the shelf that nobody priced (`askingPriceCp` null), beside a priced Rope. */
  function shelf(canManage: boolean): ShopInstance {
    const shop = buildShopInstance({ can_manage: canManage });
    const bag = buildStockItem({ id: 'stock-bag', name: 'Bag of Holding', quantity: 1, buy_price_cp: null });
    const rope = buildStockItem({ id: 'stock-rope', name: 'Rope', item_template_id: 'template-rope' });
    return { ...shop, container: { ...shop.container, item_instances: [bag, rope] } };
  }
  const rowOf = (name: string) =>
    screen.getAllByTestId('shop-stock-item').find((row) => row.dataset.itemName === name);

  it('groups the thousands of what is in stock', () => {
    const shop = buildShopInstance();
    const arrows = buildStockItem({ id: 'stock-arrow', name: 'Arrow', quantity: 1_234_567 });
    render(
      <ShopStockList
        shop={{ ...shop, container: { ...shop.container, item_instances: [arrows] } }}
        trader={trader}
        tradeOpen={false}
        onBuy={vi.fn()}
      />,
      { wrapper },
    );
    expect(screen.getByTestId('stock-quantity')).toHaveTextContent(/^1,234,567 in stock$/);
  });

  it('says to a player it is unpriced and why, with no Buy button, and not 0 cp', () => {
    render(<ShopStockList shop={shelf(false)} trader={trader} tradeOpen={false} onBuy={vi.fn()} />, {
      wrapper,
    });
    expect(rowOf('Bag of Holding')).toHaveTextContent('Unpriced');
    expect(rowOf('Bag of Holding')).toHaveTextContent(shopMessages.unpricedNotForSale);
    expect(rowOf('Bag of Holding')).not.toHaveTextContent('0 cp');
    expect(screen.queryByRole('button', { name: 'Buy Bag of Holding' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Buy Rope' })).toBeEnabled();
    expect(rowOf('Rope')).toHaveTextContent('2 gp');
  });

  it('tells the GM how to price it: with the line’s own Set price button', () => {
    render(<ShopStockList shop={shelf(true)} trader={trader} tradeOpen={false} onBuy={vi.fn()} />, {
      wrapper,
    });
    expect(rowOf('Bag of Holding')).toHaveTextContent(shopMessages.unpricedOnShelfGm);
    expect(rowOf('Bag of Holding')).toHaveTextContent('use “Set price” on this line');
    expect(rowOf('Bag of Holding')).not.toHaveTextContent('Stock an item');
    expect(screen.getByRole('button', { name: 'Set price of Bag of Holding' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Buy Bag of Holding' })).not.toBeInTheDocument();
  });
});

describe('SellList', () => {
  /** An SRD magic item nobody priced (`metadata.priced` false, worth nothing), and a priced dagger. */
  const wand = buildItem({
    id: 'item-wand',
    name: 'Wand of Magic Missiles',
    item_template_id: 'template-wand',
    item_template: {
      name: 'Wand of Magic Missiles',
      stack_size: 1,
      tags: [],
      metadata: { priced: false },
      coin: null,
    },
    quantity: 1,
    value_cp: 0,
    container_id: 'c-pack',
  });
  const dagger = buildItem({
    id: 'item-dagger',
    name: 'Dagger',
    item_template_id: 'template-dagger',
    quantity: 1,
    value_cp: 200,
    container_id: 'c-pack',
  });

  function renderSellList(shop: ShopInstance, mine = [wand, dagger]) {
    mockFetch(() => jsonResponse(200, { status: 'success', data: mine, meta: pageMeta(mine.length, 100) }));
    const onSell = vi.fn();
    renderWithProviders(<SellList shop={shop} trader={trader} onSell={onSell} />);
    return onSell;
  }

  it('offers nothing for an unpriced item the shop has no price for: it says why, with no Sell', async () => {
    renderSellList(buildShopInstance({ own_prices_cp: {} }));
    await screen.findByRole('button', { name: 'Sell Dagger' });
    const row = screen
      .getAllByTestId('sell-item')
      .find((r) => r.dataset.itemName === 'Wand of Magic Missiles');
    expect(row).toHaveTextContent(shopMessages.unpricedNoOffer);
    expect(row).toHaveTextContent('Unpriced');
    expect(row).not.toHaveTextContent('0 cp');
    expect(screen.queryByRole('button', { name: 'Sell Wand of Magic Missiles' })).not.toBeInTheDocument();
    // A priced item sells as before, at half its value.
    expect(screen.getByRole('button', { name: 'Sell Dagger' })).toBeEnabled();
    expect(screen.getByText('1 gp')).toBeInTheDocument();
  });

  it('offers the shop’s own price times its sell modifier for an unpriced item it has priced', async () => {
    const user = userEvent.setup();
    const onSell = renderSellList(buildShopInstance({ own_prices_cp: { 'template-wand': 50_001 } }));
    await user.click(await screen.findByRole('button', { name: 'Sell Wand of Magic Missiles' }));
    // 500 gp 1 cp at half: 250 gp, the copper rounded down.
    expect(onSell).toHaveBeenCalledWith(expect.objectContaining({ itemId: 'item-wand', unitCp: 25_000 }));
    expect(screen.getByText('250 gp')).toBeInTheDocument();
    expect(screen.queryByText(shopMessages.unpricedNoOffer)).not.toBeInTheDocument();
  });

  it('offers no more than the shop asks for the item, as the server quotes: below its value', async () => {
    const user = userEvent.setup();
    // The dagger (2 gp) is on sale here at 1 gp 5 sp: half its value would buy one back for 1 gp, less than
    // that; at its own price of 5 sp, half its value (1 gp) would pay double what it costs. The server's
    // quote and sale pay 5 sp (shops.buyback.test.ts), and the list shows the same.
    const onSell = renderSellList(buildShopInstance({ own_prices_cp: { 'template-dagger': 50 } }), [dagger]);
    await user.click(await screen.findByRole('button', { name: 'Sell Dagger' }));
    expect(screen.getByTestId('sell-price')).toHaveTextContent(/^5 sp$/);
    expect(onSell).toHaveBeenCalledWith(expect.objectContaining({ itemId: 'item-dagger', unitCp: 50 }));
  });

  it('offers no more than the shop asks when it would buy dearer than it sells, its discount included', async () => {
    // Sold at half its value less 20% (8 sp), bought at double (4 gp): the shop pays 8 sp.
    renderSellList(buildShopInstance({ buy_modifier: 0.5, sell_modifier: 2, discount_rate: 0.2 }), [dagger]);
    await screen.findByRole('button', { name: 'Sell Dagger' });
    expect(screen.getByTestId('sell-price')).toHaveTextContent(/^8 sp$/);
  });

  it('groups the thousands of what I have', async () => {
    // Review (coins, 8): "You have 10000000" beside a grouped price.
    const diamonds = buildItem({
      id: 'item-diamond',
      name: 'Star Diamond',
      item_template_id: 'template-diamond',
      quantity: 10_000_000,
      value_cp: 200,
      container_id: 'c-pack',
    });
    renderSellList(buildShopInstance(), [diamonds]);
    await screen.findByRole('button', { name: 'Sell Star Diamond' });
    expect(screen.getByTestId('sell-item')).toHaveTextContent('You have 10,000,000');
  });

  it('leaves coins out, the seeded ones and any item tagged currency, as the shop will not buy them', async () => {
    const coinItem = (id: string, name: string, coin: 'gp' | null) =>
      buildItem({
        id,
        name,
        item_template_id: `template-${id}`,
        item_template: { name, stack_size: 1000, tags: [CURRENCY_TAG], metadata: {}, coin },
        quantity: 12,
        value_cp: 100,
        container_id: 'c-pack',
      });
    renderSellList(buildShopInstance(), [
      coinItem('gold', 'Gold Piece', 'gp'),
      // spec/02 §3: the tag currency marks coins; the server refuses to trade them (shopMessages.currencyNotSold).
      coinItem('tokens', 'Guild Token', null),
      dagger,
    ]);
    await screen.findByRole('button', { name: 'Sell Dagger' });
    expect(screen.getAllByTestId('sell-item').map((row) => row.dataset.itemName)).toEqual(['Dagger']);
  });
});

// Author review, L5: a long name on the Buy tab ended in "…" after two lines with no way to read the rest.
describe('a long item name on the shelf', () => {
  it('can be read whole: Show full name unclamps it, and it is the name’s tooltip', async () => {
    // happy-dom lays nothing out: the clamped name is said to be taller than its box.
    const tall = vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(120);
    const box = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(40);
    try {
      const name = `The Sunforged Greatsword of the Ashen Vanguard (Legendary, requires attunement by a paladin) ${'x'.repeat(80)}`;
      render(<ShopStockList shop={shopWith(name)} trader={trader} tradeOpen={false} onBuy={vi.fn()} />, {
        wrapper,
      });
      const shown = screen.getByTestId('shop-line-name');
      expect(shown).toHaveTextContent(name);
      expect(shown).toHaveAttribute('title', name);
      const more = screen.getByRole('button', { name: 'Show full name' });
      expect(more).toHaveAttribute('aria-expanded', 'false');
      expect(more).toHaveAttribute('aria-controls', shown.id);
      await userEvent.click(more);
      expect(screen.getByRole('button', { name: 'Show less' })).toHaveAttribute('aria-expanded', 'true');
      expect(shown).toHaveAttribute('data-clamped', 'false');
    } finally {
      tall.mockRestore();
      box.mockRestore();
    }
  });

  it('offers nothing more for a name that fits', () => {
    render(<ShopStockList shop={shopWith('Rope')} trader={trader} tradeOpen={false} onBuy={vi.fn()} />, {
      wrapper,
    });
    expect(screen.queryByRole('button', { name: 'Show full name' })).not.toBeInTheDocument();
  });
});
