import type { Character } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { pickContainerByTyping } from '../../../test/container-picker';
import { buildContainer, buildItem, renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { buildLootInstance } from '../test/loot-fixtures';
import type { LootTaker } from './loot-instance-taker';
import { TakeLootDialog } from './take-loot-dialog';

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
