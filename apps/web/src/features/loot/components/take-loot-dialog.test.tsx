import type { Character } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { hasUnsavedChanges } from '../../../lib/unsaved-changes';
import { pickContainerByTyping } from '../../../test/container-picker';
import { buildContainer, buildItem, renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { buildLootInstance } from '../test/loot-fixtures';
import type { LootTaker } from './loot-instance-taker';
import { type LootPick, TakeLootDialog } from './take-loot-dialog';

const aria = { id: 'character-1', name: 'Aria', is_owner: true } as Character;

function takerWith(characters: Character[]): LootTaker {
  return {
    isPending: false,
    isError: false,
    characters,
    containers: characters.length > 0 ? [buildContainer()] : [],
  };
}

function renderDialog(
  kind: 'take' | 'claim',
  taker: LootTaker,
  stack = buildItem({ id: 'loot-rope', name: 'Rope', quantity: 2 }),
) {
  const loot = buildLootInstance({ is_revealed: true, can_take: true });
  const withRope = { ...loot, container: { ...loot.container, item_instances: [stack] } };
  return renderWithProviders(
    <TakeLootDialog loot={withRope} pick={{ kind, item: stack }} taker={taker} onClose={() => undefined} />,
  );
}

describe('TakeLootDialog', () => {
  it('gives the focus to the button that takes, once it can be pressed', async () => {
    renderDialog('take', takerWith([aria]));
    const dialog = await screen.findByRole('dialog', { name: 'Take Rope' });
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Take 1' })).toHaveFocus());
  });

  it('takes one of a stack at first, while Claim takes all of it (review newgm L5)', async () => {
    // The spec says nothing of Take's default: in a shared hoard one is the safe guess, Claim is "all".
    const { unmount } = renderDialog('take', takerWith([aria]));
    const dialog = await screen.findByRole('dialog', { name: 'Take Rope' });
    expect(within(dialog).getByRole('textbox', { name: 'Quantity' })).toHaveValue('1');
    expect(within(dialog).getByRole('button', { name: 'Take 1' })).toBeInTheDocument();
    unmount();
    renderDialog('claim', takerWith([aria]));
    const claim = await screen.findByRole('dialog', { name: 'Claim Rope' });
    expect(within(claim).queryByRole('textbox', { name: 'Quantity' })).not.toBeInTheDocument();
    expect(claim).toHaveTextContent("All of it goes into the character's main container.");
  });

  it('says an unpriced item is unpriced, as the loot list does, not "worth 0 gp each"', async () => {
    const rope = buildItem({ id: 'loot-rope', name: 'Rope', quantity: 2, value_cp: 100 });
    const scroll = buildItem({ id: 'loot-scroll', name: 'Spell Scroll', quantity: 1, value_cp: 0 });
    const unpriced = {
      ...scroll,
      item_template: {
        ...scroll.item_template,
        metadata: { ...scroll.item_template.metadata, priced: false },
      },
    };
    const { unmount } = renderDialog('claim', takerWith([aria]), unpriced);
    const dialog = await screen.findByRole('dialog', { name: 'Claim Spell Scroll' });
    expect(within(dialog).getByTestId('take-facts')).toHaveTextContent(/^1 in this loot\. Unpriced\.$/);
    expect(dialog).not.toHaveTextContent('worth 0 gp');
    unmount();
    renderDialog('take', takerWith([aria]), rope);
    const priced = await screen.findByRole('dialog', { name: 'Take Rope' });
    expect(within(priced).getByTestId('take-facts')).toHaveTextContent('2 in this loot, worth 1 gp each.');
  });

  it('keeps the focus inside the dialog when nobody can claim, not behind a disabled button', async () => {
    renderDialog('claim', takerWith([]));
    const dialog = await screen.findByRole('dialog', { name: 'Claim Rope' });
    expect(within(dialog).getByRole('button', { name: 'Claim' })).toBeDisabled();
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
  });

  it('finds the container to put it in by typing, grouped by character, for the keyboard to pick', async () => {
    const brom = { id: 'character-2', name: 'Brom', is_owner: true } as Character;
    const quiver = buildContainer({ id: 'quiver', name: 'Quiver', is_primary: false });
    const saddlebag = buildContainer({
      id: 'saddlebag',
      name: 'Saddlebag',
      character_id: brom.id,
      owner: { type: 'character', id: brom.id, name: 'Brom' },
    });
    renderDialog('take', { ...takerWith([aria, brom]), containers: [buildContainer(), quiver, saddlebag] });
    await screen.findByRole('dialog', { name: 'Take Rope' });
    const picker = await pickContainerByTyping(userEvent.setup(), {
      label: 'Put it in',
      groups: ['Aria', 'Brom'],
      typed: 'saddle',
      matching: ['Saddlebag (Brom)'],
    });
    expect(picker).toHaveValue('Saddlebag (Brom)');
  });
});

describe('TakeLootDialog and unsaved changes', { timeout: 20_000 }, () => {
  // As the item dialog's forms: a number or a container changed is asked about ("Close without saving?")
  // before Escape, Cancel or the close button throws it away, and before leaving the page.
  const rope = buildItem({ id: 'loot-rope', name: 'Rope', quantity: 5 });
  const quiver = buildContainer({ id: 'quiver', name: 'Quiver', is_primary: false });

  /** The loot's list, reduced to its Take button: the dialog's focus goes back to it as it closes. */
  function renderFromList(kind: 'take' | 'claim' = 'take') {
    const user = userEvent.setup();
    const closed = vi.fn();
    const brom = { id: 'character-2', name: 'Brom', is_owner: true } as Character;
    const taker = { ...takerWith([aria, brom]), containers: [buildContainer(), quiver] };
    const loot = buildLootInstance({ is_revealed: true, can_take: true });
    const withRope = { ...loot, container: { ...loot.container, item_instances: [rope] } };
    function Harness() {
      const [pick, setPick] = useState<LootPick | null>(null);
      return (
        <>
          <button type="button" onClick={() => setPick({ kind, item: rope })}>
            Take from the list
          </button>
          <TakeLootDialog
            loot={withRope}
            pick={pick}
            taker={taker}
            onClose={() => {
              closed();
              setPick(null);
            }}
          />
        </>
      );
    }
    renderWithProviders(<Harness />);
    return { user, closed };
  }

  async function open(user: ReturnType<typeof userEvent.setup>, name = 'Take Rope') {
    await user.click(screen.getByRole('button', { name: 'Take from the list' }));
    return screen.findByRole('dialog', { name });
  }

  async function typeQuantity(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement) {
    const quantity = within(dialog).getByRole('textbox', { name: 'Quantity' });
    await user.clear(quantity);
    await user.type(quantity, '3');
    return quantity;
  }

  const noQuestion = () =>
    expect(screen.queryByRole('dialog', { name: 'Close without saving?' })).not.toBeInTheDocument();

  it('asks before Escape throws away a changed quantity, and Keep editing goes back to it', async () => {
    const { user, closed } = renderFromList();
    const dialog = await open(user);
    await typeQuantity(user, dialog);
    expect(hasUnsavedChanges()).toBe(true);

    await user.keyboard('{Escape}');
    const ask = await screen.findByRole('dialog', { name: 'Close without saving?' });
    expect(ask).toHaveTextContent('You have unsaved changes.');
    expect(screen.getByRole('dialog', { name: 'Take Rope' })).toBeInTheDocument();
    await user.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    await waitFor(noQuestion);
    expect(within(dialog).getByRole('textbox', { name: 'Quantity' })).toHaveValue('3');
    expect(closed).not.toHaveBeenCalled();

    // Discard changes closes the dialog, the focus back on the button that opened it.
    await user.keyboard('{Escape}');
    const again = await screen.findByRole('dialog', { name: 'Close without saving?' });
    await user.click(within(again).getByRole('button', { name: 'Discard changes' }));
    expect(closed).toHaveBeenCalledTimes(1);
    expect(hasUnsavedChanges()).toBe(false);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Take from the list' })).toHaveFocus(), {
      timeout: 5_000,
    });
  });

  it.each(['Cancel', 'Close'])('asks on %s with another container chosen', async (button) => {
    const { user, closed } = renderFromList();
    const dialog = await open(user);
    await user.click(within(dialog).getByRole('combobox', { name: 'Put it in' }));
    await user.click(await screen.findByRole('option', { name: /Quiver/ }));
    expect(hasUnsavedChanges()).toBe(true);

    await user.click(within(dialog).getByRole('button', { name: button }));
    const ask = await screen.findByRole('dialog', { name: 'Close without saving?' });
    expect(closed).not.toHaveBeenCalled();
    await user.click(within(ask).getByRole('button', { name: 'Discard changes' }));
    expect(closed).toHaveBeenCalledTimes(1);
    expect(hasUnsavedChanges()).toBe(false);
  });

  it('asks on Cancel in Claim with another character chosen', async () => {
    const { user, closed } = renderFromList('claim');
    const dialog = await open(user, 'Claim Rope');
    await user.click(within(dialog).getByRole('combobox', { name: 'Claim for' }));
    await user.click(await screen.findByRole('option', { name: 'Brom' }));
    expect(hasUnsavedChanges()).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('dialog', { name: 'Close without saving?' })).toBeInTheDocument();
    expect(closed).not.toHaveBeenCalled();
  });

  it('closes at once on Cancel or Escape with nothing changed, and leaves the page free', async () => {
    const { user, closed } = renderFromList();
    let dialog = await open(user);
    expect(hasUnsavedChanges()).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(closed).toHaveBeenCalledTimes(1);
    noQuestion();
    // The first Take of a visit gives the focus back too, not only the ones after it.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Take from the list' })).toHaveFocus(), {
      timeout: 5_000,
    });

    dialog = await open(user);
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Take 1' })).toHaveFocus());
    await user.keyboard('{Escape}');
    expect(closed).toHaveBeenCalledTimes(2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    noQuestion();
  });
});
