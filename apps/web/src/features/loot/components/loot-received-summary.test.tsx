import type { LootSummary } from '@haversack/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { LootReceivedSummary, shareOfLargest } from './loot-received-summary';

const summary: LootSummary = [
  { character_id: 'c-aria', name: 'Aria', value_cp: 401, items_count: 3 },
  { character_id: 'c-bram', name: 'Bram', value_cp: 10_200, items_count: 1 },
  { character_id: 'c-cole', name: 'Cole', value_cp: 0, items_count: 0 },
];

function mockSummary(answer: () => Response) {
  return mockFetch(({ url }) => {
    const { pathname } = new URL(url, 'http://test');
    if (pathname === '/api/v1/parties/party-1/loot_summary') return answer();
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
}

describe('shareOfLargest', () => {
  it('is a whole percentage of the largest, 0 when nobody has anything', () => {
    expect(shareOfLargest(401, 10_200)).toBe(4);
    expect(shareOfLargest(10_200, 10_200)).toBe(100);
    expect(shareOfLargest(0, 0)).toBe(0);
  });
});

describe('LootReceivedSummary', () => {
  it('shows a long character name whole, wrapping, not cut with an ellipsis (outside sweep)', async () => {
    const name = 'Vex Nightwhisper of the Shadowed Vale, Keeper of the Ninth Lantern';
    mockSummary(() => success([{ character_id: 'c-vex', name, value_cp: 500, items_count: 2 }]));
    renderWithProviders(<LootReceivedSummary partyId="party-1" />);
    const shown = await screen.findByText(name);
    expect(shown).toHaveTextContent(name);
    expect(shown).not.toHaveAttribute('data-truncate');
    expect(shown.style.overflowWrap).toBe('anywhere');
  });

  it('lists every character with what they received and a bar against the largest', async () => {
    mockSummary(() => success(summary));
    renderWithProviders(<LootReceivedSummary partyId="party-1" />);
    const card = screen.getByRole('region', { name: 'Loot received' });
    expect(within(card).getByTestId('loot-received-loading')).toBeInTheDocument();
    const rows = await within(card).findAllByTestId('loot-received-row');
    expect(rows.map((r) => within(r).getByTestId('loot-received-value').textContent)).toEqual([
      '4 gp 1 cp',
      '102 gp',
      '0 gp',
    ]);
    expect(within(rows[0] as HTMLElement).getByText('Aria')).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByText('3 items · 4% of the most received')).toBeInTheDocument();
    expect(
      within(rows[1] as HTMLElement).getByText('1 item · 100% of the most received'),
    ).toBeInTheDocument();
    const bars = within(card).getAllByRole('progressbar');
    expect(bars.map((b) => [b.getAttribute('aria-label'), b.getAttribute('aria-valuenow')])).toEqual([
      ['Aria: 4% of the most received', '4'],
      ['Bram: 100% of the most received', '100'],
      ['Cole: 0% of the most received', '0'],
    ]);
    expect(within(card).getByTestId('loot-received-total')).toHaveTextContent('Total 106 gp 1 cp');
    expect(within(card).queryByTestId('loot-received-none')).not.toBeInTheDocument();
  });

  it('counts items apart from coins, never "0 items", and totals what every character received', async () => {
    // The Sunken Chest: Pip claimed 2 Potions of Healing (one stack), Rook took 400 sp and 150 gp.
    mockSummary(() =>
      success([
        { character_id: 'c-gm', name: 'Mara', value_cp: 0, items_count: 0 },
        { character_id: 'c-pip', name: 'Pip Lightfoot', value_cp: 10_000, items_count: 2 },
        { character_id: 'c-rook', name: 'Rook', value_cp: 19_000, items_count: 0 },
      ]),
    );
    renderWithProviders(<LootReceivedSummary partyId="party-1" />);
    const rows = await screen.findAllByTestId('loot-received-row');
    expect(rows.map((r) => within(r).getByTestId('loot-received-value').textContent)).toEqual([
      '0 gp',
      '100 gp',
      '190 gp',
    ]);
    const [mara, pip, rook] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(mara).getByText('0% of the most received')).toBeInTheDocument();
    expect(within(pip).getByText('2 items · 53% of the most received')).toBeInTheDocument();
    expect(within(rook).getByText('100% of the most received')).toBeInTheDocument();
    expect(screen.getByTestId('loot-received')).not.toHaveTextContent(/0 items|0 cp/);
    expect(screen.getByTestId('loot-received-total')).toHaveTextContent(/^Total 290 gp$/);
  });

  it('says when nobody has received anything yet, and when the party has no characters', async () => {
    mockSummary(() =>
      success([
        { character_id: 'c-aria', name: 'Aria', value_cp: 0, items_count: 0 },
        { character_id: 'c-bram', name: 'Bram', value_cp: 0, items_count: 0 },
      ]),
    );
    const { unmount } = renderWithProviders(<LootReceivedSummary partyId="party-1" />);
    expect(await screen.findByTestId('loot-received-none')).toHaveTextContent(
      'Nobody has received any loot yet.',
    );
    expect(screen.getAllByTestId('loot-received-row')).toHaveLength(2);
    expect(screen.getByTestId('loot-received-total')).toHaveTextContent(/^Total 0 gp$/);
    unmount();

    mockSummary(() => success([]));
    renderWithProviders(<LootReceivedSummary partyId="party-1" />);
    expect(await screen.findByTestId('loot-received-empty')).toHaveTextContent(
      'No characters in this party yet.',
    );
    expect(screen.queryByTestId('loot-received-total')).not.toBeInTheDocument();
  });

  it('shows an error with Try Again, and the list once the server answers', async () => {
    let fail = true;
    mockSummary(() => (fail ? failure(403, 'FORBIDDEN', 'nope') : success(summary)));
    const user = userEvent.setup();
    renderWithProviders(<LootReceivedSummary partyId="party-1" />);
    const panel = await screen.findByTestId('error-panel');
    expect(panel).toHaveTextContent('Unable to Load Loot Received');
    fail = false;
    await user.click(within(panel).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findAllByTestId('loot-received-row')).toHaveLength(3);
  });
});
