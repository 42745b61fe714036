import type { LootInstance } from '@haversack/contracts';
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { theme } from '../../../app/theme';
import { buildItem } from '../../inventory/test/inventory-fixtures';
import { buildLootInstance } from '../test/loot-fixtures';
import { LootInstanceItems } from './loot-instance-items';
import type { LootPick } from './take-loot-dialog';

/** Revealed loot I may take from, holding one stack of each named item. */
function lootWith(...names: string[]): LootInstance {
  const loot = buildLootInstance({ is_revealed: true, can_manage: false, can_take: true });
  const items = names.map((name) =>
    buildItem({ id: `loot-stack-${name}`, name, container_id: loot.container.id, quantity: 2 }),
  );
  return { ...loot, container: { ...loot.container, item_instances: items } };
}

const wrapper = ({ children }: { children: ReactNode }) => (
  <MantineProvider env="test" theme={theme}>
    {children}
  </MantineProvider>
);

describe('LootInstanceItems', () => {
  const list = (open: boolean, onPick: (pick: LootPick) => void, ...names: string[]) => (
    <LootInstanceItems loot={lootWith(...names)} canTake disabled={false} takeOpen={open} onPick={onPick} />
  );

  it('says once how Take and Claim differ, and each button is described by it', () => {
    render(list(false, vi.fn(), 'Rope'), { wrapper });
    const help =
      'Take: choose how many and which of your containers. Claim: all of it, into a character’s main container.';
    expect(screen.getByText(help)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Take Rope' })).toHaveAccessibleDescription(help);
    expect(screen.getByRole('button', { name: 'Claim Rope' })).toHaveAccessibleDescription(help);
  });

  it('brings focus back from the take dialog to the Claim that opened it, or the next row’s, or the list', async () => {
    const user = userEvent.setup();
    const onPick = vi.fn();
    const view = render(list(false, onPick, 'Rope', 'Sack', 'Torch'), { wrapper });
    // A click focuses the button, as Tab then Enter would.
    await user.click(screen.getByRole('button', { name: 'Claim Sack' }));
    expect(screen.getByRole('button', { name: 'Claim Sack' })).toHaveFocus();
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ kind: 'claim' }));

    // The dialog takes focus; the claim is refused (or cancelled), and the row is still there.
    view.rerender(list(true, onPick, 'Rope', 'Sack', 'Torch'));
    screen.getByRole('button', { name: 'Claim Sack' }).blur();
    view.rerender(list(false, onPick, 'Rope', 'Sack', 'Torch'));
    expect(screen.getByRole('button', { name: 'Claim Sack' })).toHaveFocus();

    // Claimed: the stack leaves the loot once the dialog has closed, and the next row's Claim has focus.
    view.rerender(list(true, onPick, 'Rope', 'Sack', 'Torch'));
    screen.getByRole('button', { name: 'Claim Sack' }).blur();
    view.rerender(list(false, onPick, 'Rope', 'Sack', 'Torch'));
    view.rerender(list(false, onPick, 'Rope', 'Torch'));
    expect(screen.getByRole('button', { name: 'Claim Torch' })).toHaveFocus();

    // The last row claimed, gone by the time the dialog closes: the row before it.
    await user.click(screen.getByRole('button', { name: 'Claim Torch' }));
    view.rerender(list(true, onPick, 'Rope', 'Torch'));
    screen.getByRole('button', { name: 'Claim Torch' }).blur();
    view.rerender(list(true, onPick, 'Rope'));
    expect(document.body).toHaveFocus();
    view.rerender(list(false, onPick, 'Rope'));
    expect(screen.getByRole('button', { name: 'Claim Rope' })).toHaveFocus();

    // Nothing left: the list's empty state.
    await user.click(screen.getByRole('button', { name: 'Claim Rope' }));
    view.rerender(list(true, onPick, 'Rope'));
    screen.getByRole('button', { name: 'Claim Rope' }).blur();
    view.rerender(list(false, onPick));
    expect(screen.getByTestId('loot-empty')).toHaveFocus();
  });

  it('keeps a Take’s focus on Take, in its row or the one in its place', async () => {
    const user = userEvent.setup();
    const onPick = vi.fn();
    const view = render(list(false, onPick, 'Rope', 'Sack'), { wrapper });
    await user.click(screen.getByRole('button', { name: 'Take Rope' }));
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ kind: 'take' }));
    view.rerender(list(true, onPick, 'Rope', 'Sack'));
    screen.getByRole('button', { name: 'Take Rope' }).blur();
    // Part of the stack taken: the row stays.
    view.rerender(list(false, onPick, 'Rope', 'Sack'));
    expect(screen.getByRole('button', { name: 'Take Rope' })).toHaveFocus();

    // All of it taken: the Take of the row now in its place, not its Claim.
    await user.click(screen.getByRole('button', { name: 'Take Rope' }));
    view.rerender(list(true, onPick, 'Rope', 'Sack'));
    screen.getByRole('button', { name: 'Take Rope' }).blur();
    view.rerender(list(false, onPick, 'Sack'));
    expect(screen.getByRole('button', { name: 'Take Sack' })).toHaveFocus();
  });

  it('leaves focus alone when the user moved it elsewhere', async () => {
    const user = userEvent.setup();
    const view = render(
      <>
        <button type="button">Elsewhere</button>
        {list(false, () => undefined, 'Rope', 'Sack')}
      </>,
      { wrapper },
    );
    await user.click(screen.getByRole('button', { name: 'Claim Sack' }));
    await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
    view.rerender(
      <>
        <button type="button">Elsewhere</button>
        {list(false, () => undefined, 'Rope')}
      </>,
    );
    expect(screen.getByRole('button', { name: 'Elsewhere' })).toHaveFocus();
  });
});
