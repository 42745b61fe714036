import { DndContext, KeyboardSensor, useSensor, useSensors } from '@dnd-kit/core';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
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

function TwoPanels({ onDragStart }: { onDragStart: () => void }) {
  const sensors = useSensors(
    useSensor(KeyboardSensor, { keyboardCodes: { start: ['Space'], cancel: ['Escape'], end: ['Enter'] } }),
  );
  const [both, setBoth] = useState(true);
  const item = buildItem({ name: 'Longsword', quantity: 1 });
  return (
    <DndContext sensors={sensors} onDragStart={onDragStart}>
      <section aria-label="First panel">
        <ItemTile item={item} layout="grid" draggable onOpen={vi.fn()} />
      </section>
      <section aria-label="Second panel">
        <button type="button" onClick={() => setBoth(false)}>
          Show another container
        </button>
        {both ? <ItemTile item={item} layout="grid" draggable onOpen={vi.fn()} /> : null}
      </section>
    </DndContext>
  );
}

describe('ItemTile dragging', () => {
  it('still starts a drag after the same item left the other panel (issue 12)', async () => {
    // Both panels showed one container, then the second panel's Source select picked another: its tiles
    // unmount. The first panel's tiles must still drag.
    const user = userEvent.setup();
    const onDragStart = vi.fn();
    renderWithProviders(<TwoPanels onDragStart={onDragStart} />);
    expect(screen.getAllByRole('button', { name: 'Longsword, quantity 1' })).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Show another container' }));
    const first = within(screen.getByRole('region', { name: 'First panel' }));
    first.getByRole('button', { name: 'Longsword, quantity 1' }).focus();
    await user.keyboard(' ');
    expect(onDragStart).toHaveBeenCalledTimes(1);
  });
});
