import type { PartyWealth } from '@haversack/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { buildCharacterWealth, buildHolding } from '../../characters/test/wealth-fixtures';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { PartyWealthSection } from './party-wealth-table';

const wealth: PartyWealth = {
  characters: [
    buildCharacterWealth({
      character_id: 'c-bram',
      name: 'Bram',
      player_name: 'bram_player',
      is_owner: false,
      coins: { cp: 0, sp: 0, ep: 0, gp: 10, pp: 0 },
      coins_value_cp: 1_000,
      items_value_cp: 200,
      total_value_cp: 1_200,
      carried_weight: 20.2,
      max_weight: 30,
      encumbrance: 'heavily_encumbered',
    }),
    buildCharacterWealth({
      character_id: 'c-cora',
      name: 'Cora',
      player_name: 'me',
      is_owner: true,
      coins: { cp: 0, sp: 25, ep: 0, gp: 0, pp: 0 },
      coins_value_cp: 250,
      total_value_cp: 250,
      carried_weight: 0.5,
      max_weight: 100,
      encumbrance: 'unencumbered',
    }),
  ],
  stash: buildHolding({
    coins: { cp: 0, sp: 0, ep: 0, gp: 100, pp: 0 },
    coins_value_cp: 10_000,
    items_value_cp: 100,
    total_value_cp: 10_100,
    carried_weight: 12,
  }),
  totals: buildHolding({
    coins: { cp: 0, sp: 25, ep: 0, gp: 110, pp: 0 },
    coins_value_cp: 11_250,
    items_value_cp: 300,
    total_value_cp: 11_550,
    carried_weight: 32.7,
  }),
};

function mockWealth(answer: () => Response) {
  return mockFetch(({ url }) => {
    const { pathname } = new URL(url, 'http://test');
    if (pathname === '/api/v1/parties/party-1/wealth') return answer();
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
}

restoreViewportAfterEach();

const rowByName = (table: HTMLElement, name: string) =>
  within(table)
    .getByRole('rowheader', { name: new RegExp(name) })
    .closest('tr') as HTMLElement;

describe('PartyWealthSection', () => {
  it('shows the GM every character’s purse, wealth, load and encumbrance, the stash and the total', async () => {
    mockWealth(() => success(wealth));
    renderWithProviders(<PartyWealthSection partyId="party-1" isGm />);
    const section = screen.getByRole('region', { name: 'Party load and wealth' });
    expect(within(section).getByTestId('party-wealth-loading')).toBeInTheDocument();

    const table = await within(section).findByRole('table');
    // On a phone the table scrolls sideways in its own box, which the keyboard can reach.
    // A short name; the sentence that says what the figures are is its description.
    const scroller = within(section).getByRole('region', { name: "Every character's purse and load" });
    expect(scroller).toHaveAttribute('tabindex', '0');
    expect(scroller).toHaveAccessibleDescription(
      "Every character's coins, wealth in gp and load against their max weight.",
    );
    expect(table).toHaveAccessibleName("Every character's purse and load");
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Character', 'Purse', 'Wealth', 'Load and encumbrance']);
    const bram = rowByName(table, 'Bram');
    expect(within(bram).getByRole('link', { name: 'Bram' })).toHaveAttribute('href', '/characters/c-bram');
    expect(within(bram).getByText('bram_player')).toBeInTheDocument();
    expect(within(bram).getByTestId('wealth-row-purse')).toHaveTextContent('10 gp');
    expect(within(bram).getByTestId('wealth-row-value')).toHaveTextContent('12 gp');
    expect(within(bram).getByTestId('load-amount')).toHaveTextContent('20.2 / 30 lbs');
    expect(within(bram).getByTestId('encumbrance-badge')).toHaveTextContent('Heavily encumbered');
    expect(
      within(bram).getByRole('progressbar', { name: /^Load of Bram: 20.2 \/ 30 lbs, Heavily encumbered/ }),
    ).toHaveAttribute('aria-valuenow', '67.3');
    const cora = rowByName(table, 'Cora');
    expect(within(cora).getByTestId('wealth-row-purse')).toHaveTextContent('25 sp');
    expect(within(cora).getByTestId('wealth-row-value')).toHaveTextContent('2 gp');
    expect(within(cora).getByTestId('encumbrance-badge')).toHaveTextContent('Unencumbered');

    const stash = within(table).getByTestId('wealth-stash-row');
    expect(stash).toHaveTextContent('Party stash');
    expect(within(stash).getByTestId('wealth-row-value')).toHaveTextContent('101 gp');
    expect(stash).toHaveTextContent('12 lbs');
    const total = within(table).getByTestId('wealth-total-row');
    expect(total).toHaveTextContent('Party total');
    expect(within(total).getByTestId('wealth-row-purse')).toHaveTextContent('110 gp 25 sp');
    expect(within(total).getByTestId('wealth-row-value')).toHaveTextContent('115 gp');
    expect(total).toHaveTextContent('32.7 lbs');
  });

  it('gives each worth to the copper, as the character pages do, so the parts add up to the total shown', async () => {
    const items = (name: string, items_value_cp: number) =>
      buildCharacterWealth({
        character_id: `c-${name}`,
        name,
        coins: { cp: 0, sp: 0, ep: 0, gp: 0, pp: 0 },
        coins_value_cp: 0,
        items_value_cp,
        total_value_cp: items_value_cp,
      });
    const nothing = { coins: { cp: 0, sp: 0, ep: 0, gp: 0, pp: 0 }, coins_value_cp: 0 };
    mockWealth(() =>
      success({
        characters: [items('Bram', 8_750), items('Cora', 1_553)],
        stash: buildHolding({ ...nothing, items_value_cp: 0, total_value_cp: 0 }),
        totals: buildHolding({ ...nothing, items_value_cp: 10_303, total_value_cp: 10_303 }),
      }),
    );
    renderWithProviders(<PartyWealthSection partyId="party-1" isGm />);
    const table = await screen.findByRole('table');
    const itemsLine = (row: HTMLElement) => within(row).getByText(/^Items /).textContent;
    expect(itemsLine(rowByName(table, 'Bram'))).toBe('Items 87 gp 5 sp');
    expect(itemsLine(rowByName(table, 'Cora'))).toBe('Items 15 gp 5 sp 3 cp');
    const total = within(table).getByTestId('wealth-total-row');
    expect(itemsLine(total)).toBe('Items 103 gp 3 cp');
    expect(within(total).getByTestId('wealth-row-value')).toHaveTextContent(/^103 gp 3 cp$/);
  });

  it('keeps every figure on one line beside a long name, the name wrapping instead', async () => {
    // Review (content): beside a 100-letter name the Wealth column read "81,000,0 / 21 gp". jsdom lays
    // nothing out: the style that prevents it, on each figure of every row.
    mockWealth(() =>
      success({
        ...wealth,
        characters: [
          buildCharacterWealth({
            character_id: 'c-long',
            name: 'W'.repeat(100),
            items_value_cp: 8_100_002_100,
            total_value_cp: 8_100_002_100,
          }),
        ],
      }),
    );
    renderWithProviders(<PartyWealthSection partyId="party-1" isGm />);
    const table = await screen.findByRole('table');
    const figures = [
      ...within(table).getAllByTestId('wealth-row-value'),
      ...within(table).getAllByText(/^Items /),
    ];
    expect(figures).toHaveLength(6);
    expect(within(table).getAllByText('81,000,021 gp')).toHaveLength(1);
    for (const figure of figures) expect(figure).toHaveStyle({ whiteSpace: 'nowrap' });
  });

  it('shows a player only their own characters, without the stash or the total', async () => {
    mockWealth(() => success(wealth));
    renderWithProviders(<PartyWealthSection partyId="party-1" isGm={false} />);
    const section = screen.getByRole('region', { name: 'Your purse and load' });
    const table = await within(section).findByRole('table');
    expect(
      within(table)
        .getAllByTestId('wealth-row')
        .map((r) => r.dataset.characterId),
    ).toEqual(['c-cora']);
    expect(within(table).queryByText('Bram')).not.toBeInTheDocument();
    expect(within(table).queryByTestId('wealth-stash-row')).not.toBeInTheDocument();
    expect(within(table).queryByTestId('wealth-total-row')).not.toBeInTheDocument();
  });

  it('says so when there is nothing to show, for the GM and for a player without a character', async () => {
    mockWealth(() => success({ characters: [], stash: null, totals: buildHolding() }));
    const { unmount } = renderWithProviders(<PartyWealthSection partyId="party-1" isGm />);
    expect(await screen.findByTestId('party-wealth-empty')).toHaveTextContent(
      'No characters in this party yet.',
    );
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    unmount();

    mockWealth(() => success({ ...wealth, characters: wealth.characters.filter((c) => !c.is_owner) }));
    renderWithProviders(<PartyWealthSection partyId="party-1" isGm={false} />);
    expect(await screen.findByTestId('party-wealth-empty')).toHaveTextContent(
      'You have no character in this party yet.',
    );
  });

  it('keeps the stash and the total for a GM whose party has a stash but no characters', async () => {
    mockWealth(() => success({ ...wealth, characters: [] }));
    renderWithProviders(<PartyWealthSection partyId="party-1" isGm />);
    const table = await screen.findByRole('table');
    expect(within(table).queryAllByTestId('wealth-row')).toHaveLength(0);
    expect(within(table).getByTestId('wealth-stash-row')).toBeInTheDocument();
  });

  it('shows an error with Try Again, and the table once the server answers', async () => {
    let calls = 0;
    mockWealth(() => {
      calls += 1;
      return calls === 1 ? failure(403, 'FORBIDDEN', 'No.') : success(wealth);
    });
    renderWithProviders(<PartyWealthSection partyId="party-1" isGm />);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Unable to Load Party Wealth')).toBeInTheDocument();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('on a phone shows a card per character, then the stash and the total, with nothing to scroll sideways', async () => {
    setViewport(375, 812);
    mockWealth(() => success(wealth));
    renderWithProviders(<PartyWealthSection partyId="party-1" isGm />);
    const section = screen.getByRole('region', { name: 'Party load and wealth' });
    const list = await within(section).findByRole('list', { name: "Every character's purse and load" });
    expect(list).toHaveAccessibleDescription(
      "Every character's coins, wealth in gp and load against their max weight.",
    );
    expect(within(section).queryByRole('table')).not.toBeInTheDocument();

    const cards = within(list).getAllByRole('listitem');
    expect(cards.map((card) => card.dataset.testid)).toEqual([
      'wealth-row',
      'wealth-row',
      'wealth-stash-row',
      'wealth-total-row',
    ]);
    const [bram, cora, stash, total] = cards as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    expect(within(bram).getByRole('link', { name: 'Bram' })).toHaveAttribute('href', '/characters/c-bram');
    expect(within(bram).getByText('bram_player')).toBeInTheDocument();
    expect(within(bram).getByTestId('wealth-row-purse')).toHaveTextContent('10 gp');
    expect(within(bram).getByTestId('wealth-row-value')).toHaveTextContent('12 gp');
    expect(within(bram).getByTestId('encumbrance-badge')).toHaveTextContent('Heavily encumbered');
    expect(
      within(bram).getByRole('progressbar', { name: /^Load of Bram: 20.2 \/ 30 lbs, Heavily encumbered/ }),
    ).toBeInTheDocument();
    expect(within(cora).getByTestId('wealth-row-purse')).toHaveTextContent('25 sp');
    expect(within(stash).getByTestId('wealth-row-value')).toHaveTextContent('101 gp');
    expect(stash).toHaveTextContent('12 lbs');
    expect(within(total).getByTestId('wealth-row-purse')).toHaveTextContent('110 gp 25 sp');
    expect(within(total).getByTestId('wealth-row-value')).toHaveTextContent('115 gp');
    expect(total).toHaveTextContent('32.7 lbs');
  });

  // Tablet review: at 768 × 1024 the sidebar leaves the section about 490 px, and the table, 640 px wide,
  // cut its load column at "Load a" with nothing to say there was more.
  it('shows the cards wherever the section is narrower than the table, as on a tablet held upright', async () => {
    setViewport(768, 1024);
    const width = 490;
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(private readonly callback: ResizeObserverCallback) {}
        observe(target: Element) {
          const entry = {
            target,
            contentRect: new DOMRect(0, 0, width, 400),
            borderBoxSize: [{ inlineSize: width, blockSize: 400 }],
            contentBoxSize: [{ inlineSize: width, blockSize: 400 }],
          } as unknown as ResizeObserverEntry;
          this.callback([entry], this as unknown as ResizeObserver);
        }
        unobserve() {}
        disconnect() {}
      },
    );
    try {
      mockWealth(() => success(wealth));
      renderWithProviders(<PartyWealthSection partyId="party-1" isGm />);
      const section = screen.getByRole('region', { name: 'Party load and wealth' });
      await within(section).findByRole('list', { name: "Every character's purse and load" });
      expect(within(section).queryByRole('table')).not.toBeInTheDocument();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('shows an untracked load without its max weight or a bar, on a desktop and on a phone', async () => {
    // Review (coins, 9): in a party with encumbrance "none" a character with max_weight 50 read
    // "6,173.24 / 50 lbs" with a full bar beside "Weight not tracked".
    const untracked: PartyWealth = {
      ...wealth,
      characters: [
        buildCharacterWealth({
          character_id: 'c-gm',
          name: 'Garrick',
          carried_weight: 6_173.24,
          max_weight: 50,
          weight_tracked: false,
          encumbrance: null,
        }),
        buildCharacterWealth({
          character_id: 'c-free',
          name: 'Fenn',
          carried_weight: 3,
          max_weight: null,
          weight_tracked: false,
          encumbrance: null,
        }),
      ],
    };
    for (const width of [1280, 375]) {
      setViewport(width, 812);
      mockWealth(() => success(untracked));
      const { unmount } = renderWithProviders(<PartyWealthSection partyId="party-1" isGm />);
      const rows = await screen.findAllByTestId('wealth-row');
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(within(row).getByTestId('encumbrance-badge')).toHaveTextContent('Weight not tracked');
        expect(within(row).queryByRole('progressbar')).not.toBeInTheDocument();
        expect(within(row).getByTestId('load-amount').textContent).not.toContain('/');
      }
      expect(within(rows[0] as HTMLElement).getByTestId('load-amount')).toHaveTextContent(/^6,173.24 lbs$/);
      expect(within(rows[1] as HTMLElement).getByTestId('load-amount')).toHaveTextContent(/^3 lbs$/);
      unmount();
    }
  });

  it('on a phone shows a player their own characters only', async () => {
    setViewport(375, 812);
    mockWealth(() => success(wealth));
    renderWithProviders(<PartyWealthSection partyId="party-1" isGm={false} />);
    const list = await screen.findByRole('list', { name: "Your characters' purses and loads" });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((card) => card.dataset.characterId),
    ).toEqual(['c-cora']);
  });
});
