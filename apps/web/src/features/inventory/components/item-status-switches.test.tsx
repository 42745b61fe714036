import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildItem, renderWithProviders } from '../test/inventory-fixtures';
import { ItemStatusSwitches } from './item-status-switches';

describe('ItemStatusSwitches', () => {
  it('offers Equipped, and says when an item needs no attunement', () => {
    renderWithProviders(<ItemStatusSwitches item={buildItem({ name: 'Rope' })} />);
    expect(screen.getByRole('switch', { name: 'Equipped' })).toBeInTheDocument();
    expect(screen.getByText('Does not require attunement')).toBeInTheDocument();
  });

  it('offers nothing for coins: they are carried, never worn or attuned', () => {
    const gold = buildItem({
      name: 'Gold piece',
      item_template: { name: 'Gold piece', stack_size: 0, tags: ['currency'], metadata: {}, coin: 'gp' },
    });
    renderWithProviders(<ItemStatusSwitches item={gold} />);
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    expect(screen.queryByText('Does not require attunement')).not.toBeInTheDocument();
  });
});
