import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildContainer, buildItem, renderWithProviders } from '../test/inventory-fixtures';
import { ItemDetail } from './item-detail';

afterEach(() => vi.unstubAllGlobals());

const backpack = buildContainer();
const sack = buildContainer({ id: 'container-2', name: 'Sack', is_primary: false });
const arrows = buildItem({ id: 'item-1', quantity: 12 });
const otherArrows = buildItem({ id: 'item-2', quantity: 8 });
const bard = {
  id: 'character-2',
  user_id: 'user-2',
  player_name: 'Sam',
  name: 'Brom',
  race: '',
  character_class: '',
  level: 1,
  notes: '',
  image_url: '',
  max_weight: 50,
  max_slots: 20,
  party_id: 'party-1',
  party_name: 'The Company',
  primary_container_id: 'bag-2',
  is_owner: false,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};
const aria = {
  ...bard,
  id: 'character-1',
  user_id: 'user-1',
  player_name: null,
  name: 'Aria',
  is_owner: true,
};

function serve() {
  mockFetch(({ url }) => {
    if (url.includes('/characters/character-1')) return success(aria);
    const list = url.includes('/characters?') ? [aria, bard] : [arrows, otherArrows];
    return jsonResponse(200, {
      status: 'success',
      data: list,
      meta: { current_page: 1, total_pages: 1, total_count: list.length, per_page: 500 },
    });
  });
}

function openSheet(loot = false) {
  renderWithProviders(
    <ItemDetail
      item={arrows}
      loot={loot ? { lootId: 'loot-1', lootName: 'Dragon hoard', partyId: 'party-1', blocked: null } : null}
      device="mobile"
      canAct
      destinations={[backpack, sack]}
      lootDestinations={[backpack, sack]}
      onClose={() => undefined}
    />,
  );
}

/**
 * The phone's bottom sheet is a fixed Drawer: an option list placed `absolute` in the page could reach past
 * its right edge, and the phone widened the page under the sheet, again and again (the list flickered and
 * could not be tapped). Every Select of the sheet places its list `fixed`, as the sheet is.
 */
async function expectFixedList(label: string) {
  fireEvent.click(await screen.findByRole('combobox', { name: label }));
  const [option] = await screen.findAllByRole('option');
  expect(option?.closest('[data-fixed]')).not.toBeNull();
}

describe('the Selects of the phone’s item sheet', () => {
  it.each([
    ['Transfer', 'Destination'],
    ['Merge with another stack', 'Stack to merge with'],
    ['Give to...', 'Give to'],
  ])('%s places its option list fixed, as the sheet is', async (action, label) => {
    serve();
    openSheet();
    fireEvent.click(await screen.findByRole('button', { name: action }));
    await expectFixedList(label);
  });

  it('a loot stack’s Take places its option list fixed, as the sheet is', async () => {
    serve();
    openSheet(true);
    await expectFixedList('Take into');
  });
});
