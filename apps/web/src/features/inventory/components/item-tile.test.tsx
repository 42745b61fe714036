import { DndContext } from '@dnd-kit/core';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildItem, renderWithProviders } from '../test/inventory-fixtures';
import { ItemTile } from './item-tile';

function renderTile(item = buildItem(), layout: 'grid' | 'list' = 'grid') {
  renderWithProviders(
    <DndContext>
      <ItemTile item={item} layout={layout} draggable={false} onOpen={vi.fn()} />
    </DndContext>,
  );
}

describe('ItemTile', () => {
  it('shows the stack weight and a whole-gp value from one gold piece up', () => {
    renderTile(buildItem({ name: 'Longsword', quantity: 2, totalWeight: 6, value_cp: 1500 }));
    expect(screen.getByText('6.0 lb · 30 gp')).toBeInTheDocument();
  });

  it('shows small change in silver or copper, never 0 gp', () => {
    renderTile(buildItem({ name: 'Arrow', quantity: 10, totalWeight: 0.5, value_cp: 1 }), 'list');
    expect(screen.getByText('0.5 lb · 1 sp')).toBeInTheDocument();
  });
});
