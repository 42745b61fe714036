import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ComponentProps, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { hasUnsavedChanges } from '../../../lib/unsaved-changes';
import { jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { useGlobalStyles } from '../../../test/global-styles';
import { buildCharacter } from '../../../test/party-fixtures';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { buildContainer, buildItem, renderWithProviders } from '../test/inventory-fixtures';
import { ItemDetail } from './item-detail';

const backpack = buildContainer();
const sack = buildContainer({ id: 'container-2', name: 'Sack', is_primary: false });
const arrows = buildItem({ id: 'item-1', quantity: 12 });

/**
 * Aria holds the arrows; Brom, in her party, may be given them (after the party's characters load). The
 * backpack's list answers `backpackItems`: other stacks there are what Merge offers.
 */
function serve(backpackItems: (typeof arrows)[] = []) {
  const aria = buildCharacter({ id: 'character-1', name: 'Aria', party_id: 'party-1' });
  const brom = buildCharacter({ id: 'character-2', name: 'Brom', party_id: 'party-1', is_owner: false });
  mockFetch(({ url }) => {
    if (url.includes('/characters/character-1')) return success(aria);
    const list = url.includes('/characters?')
      ? [aria, brom]
      : url.includes('/containers/container-1/items?')
        ? backpackItems
        : [];
    return jsonResponse(200, {
      status: 'success',
      data: list,
      meta: { current_page: 1, total_pages: 1, total_count: list.length, per_page: 500 },
    });
  });
}

async function openDetail() {
  serve();
  const user = userEvent.setup();
  renderWithProviders(
    <ItemDetail
      item={arrows}
      device="desktop"
      canAct
      destinations={[backpack, sack]}
      onClose={() => undefined}
    />,
  );
  const dialog = await screen.findByRole('dialog', { name: 'Arrow ×12' });
  return { user, dialog };
}

/** `leave` (Escape, Cancel) asks the unsaved-edit question in its words; Keep editing closes it. */
async function keepEditingWhenAsked(user: ReturnType<typeof userEvent.setup>, leave: () => Promise<void>) {
  await leave();
  const ask = await screen.findByRole('dialog', { name: 'Close without saving?' });
  expect(ask).toHaveTextContent('You have unsaved changes.');
  await user.click(within(ask).getByRole('button', { name: 'Keep editing' }));
  await waitFor(() =>
    expect(screen.queryByRole('dialog', { name: 'Close without saving?' })).not.toBeInTheDocument(),
  );
}

/**
 * The arrows' dialog (a loot stack's with `loot`) on a page that closes it when asked to: `closed` counts
 * those asks.
 */
function renderClosable({
  device = 'desktop',
  loot,
  backpackItems,
}: {
  device?: 'desktop' | 'mobile';
  loot?: ComponentProps<typeof ItemDetail>['loot'];
  backpackItems?: (typeof arrows)[];
} = {}) {
  serve(backpackItems);
  const user = userEvent.setup();
  const closed = vi.fn();
  function Harness() {
    const [item, setItem] = useState<typeof arrows | null>(arrows);
    return (
      <ItemDetail
        item={item}
        {...(loot ? { loot, lootDestinations: [backpack, sack] } : {})}
        device={device}
        canAct
        destinations={[backpack, sack]}
        onClose={() => {
          closed();
          setItem(null);
        }}
      />
    );
  }
  renderWithProviders(<Harness />);
  return { user, closed };
}

describe('the item dialog’s forms and the keyboard', () => {
  it.each([
    ['Edit', 'textbox', /^Name/],
    ['Transfer', 'combobox', 'Destination'],
    ['Give to...', 'combobox', 'Give to'],
    ['Split', 'textbox', /^Split amount/],
    ['Clone to template', 'textbox', /^Template name/],
  ])('%s moves focus to the first field of its form', async (action, role, field) => {
    const { user, dialog } = await openDetail();
    await user.click(within(dialog).getByRole('button', { name: action }));
    await waitFor(() => expect(within(dialog).getByRole(role, { name: field })).toHaveFocus());
  });

  it.each(['Edit', 'Split', 'Clone to template'])(
    'Cancel on the %s form gives focus back to its button',
    async (action) => {
      const { user, dialog } = await openDetail();
      await user.click(within(dialog).getByRole('button', { name: action }));
      await user.click(await within(dialog).findByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(within(dialog).getByRole('button', { name: action })).toHaveFocus());
    },
  );
});

describe('the destroy confirmation over the item dialog', () => {
  it('closes alone on Escape, focus back on the item dialog’s Destroy button', async () => {
    const { user } = renderClosable();
    const dialog = await screen.findByRole('dialog', { name: 'Arrow ×12' });
    await user.click(within(dialog).getByRole('button', { name: 'Destroy' }));
    expect(await screen.findByRole('dialog', { name: 'Destroy item' })).toBeInTheDocument();

    await user.keyboard('{Escape}');
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Destroy item' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('dialog', { name: 'Arrow ×12' })).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Destroy' })).toHaveFocus());
  });
});

describe('a tablet turned while the item is open', () => {
  it('keeps the sheet, and what was typed, until the item closes', async () => {
    serve();
    const user = userEvent.setup();
    let turn: (device: 'tablet' | 'desktop') => void = () => undefined;
    let close: () => void = () => undefined;
    function Harness() {
      const [device, setDevice] = useState<'tablet' | 'desktop'>('tablet');
      const [item, setItem] = useState<typeof arrows | null>(arrows);
      turn = setDevice;
      close = () => setItem(null);
      return (
        <ItemDetail item={item} device={device} canAct destinations={[backpack, sack]} onClose={close} />
      );
    }
    renderWithProviders(<Harness />);
    const sheet = await screen.findByRole('dialog', { name: 'Arrow ×12' });
    expect(sheet.closest('.mantine-Drawer-root')).not.toBeNull();
    await user.click(within(sheet).getByRole('button', { name: 'Edit' }));
    const name = await within(sheet).findByRole('textbox', { name: /^Name/ });
    await user.clear(name);
    await user.type(name, 'Silvered arrow');

    act(() => turn('desktop'));
    const still = screen.getByRole('dialog', { name: 'Arrow ×12' });
    expect(still.closest('.mantine-Drawer-root')).not.toBeNull();
    expect(within(still).getByRole('textbox', { name: /^Name/ })).toHaveValue('Silvered arrow');

    act(() => close());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('what the item is, in the modal and in the sheet', () => {
  it.each([
    ['desktop', '.mantine-Modal-root'],
    ['mobile', '.mantine-Drawer-root'],
  ] as const)('shows the description and links to the template on a %s', async (device, root) => {
    serve();
    renderWithProviders(
      <ItemDetail
        item={arrows}
        about={{ description: 'Ammunition for a shortbow or longbow.', templateId: 'template-1' }}
        device={device}
        canAct
        destinations={[backpack, sack]}
        onClose={() => undefined}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Arrow ×12' });
    expect(dialog.closest(root)).not.toBeNull();
    expect(within(dialog).getByText('Ammunition for a shortbow or longbow.')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'View template' })).toHaveAttribute(
      'href',
      '/items/templates/template-1',
    );
  });
});

describe('the item’s bottom sheet', () => {
  it('has its handle at its top edge, above the title, and closes on a 50 px swipe down it', async () => {
    serve();
    const onClose = vi.fn();
    renderWithProviders(
      <ItemDetail item={arrows} device="mobile" canAct destinations={[backpack, sack]} onClose={onClose} />,
    );
    const sheet = await screen.findByRole('dialog', { name: 'Arrow ×12' });
    const handle = within(sheet).getByTestId('sheet-handle');
    const title = within(sheet).getByTestId('item-dialog-title');
    expect(sheet.firstElementChild).toBe(handle);
    expect(handle.compareDocumentPosition(title) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    fireEvent.pointerDown(handle, { clientY: 100 });
    fireEvent.pointerUp(handle, { clientY: 149 });
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.pointerDown(handle, { clientY: 100 });
    fireEvent.pointerUp(handle, { clientY: 150 });
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('the item sheet’s links on a phone', () => {
  restoreViewportAfterEach();
  it('makes View template at least 24 px tall (outside sweep: 20 px)', async () => {
    useGlobalStyles('Anchor');
    setViewport(375, 812);
    serve();
    renderWithProviders(
      <ItemDetail
        item={arrows}
        about={{ description: 'Ammunition for a shortbow or longbow.', templateId: 'template-1' }}
        device="mobile"
        canAct
        destinations={[backpack, sack]}
        onClose={() => undefined}
      />,
    );
    const sheet = await screen.findByRole('dialog', { name: 'Arrow ×12' });
    expect(getComputedStyle(within(sheet).getByRole('link', { name: 'View template' })).minHeight).toBe(
      '24px',
    );
  });
});

describe('the item dialog’s title', () => {
  // Review (content): clamped to a few lines, a long name could be read whole only in Edit on a phone, where
  // a tooltip never shows. The dialog is where the whole item is read: its name shows whole, wrapping.
  it.each(['desktop', 'mobile'] as const)('shows a long name whole, wrapping, on %s', async (device) => {
    serve();
    const name = `Sword of ${'the very long and winding name '.repeat(6)}${'N'.repeat(150)}`;
    const { unmount } = renderWithProviders(
      <ItemDetail
        item={buildItem({ id: 'item-9', name, quantity: 2 })}
        device={device}
        canAct
        destinations={[backpack, sack]}
        onClose={() => undefined}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: `${name} ×2` });
    const title = within(dialog).getByTestId('item-dialog-title');
    expect(title).toHaveTextContent(`${name} ×2`);
    expect(title).not.toHaveAttribute('data-line-clamp');
    expect(title.style.getPropertyValue('--text-line-clamp')).toBe('');
    expect(title.style.overflowWrap).toBe('anywhere');
    unmount();
  });
});

describe('unsaved edits of an item', { timeout: 20_000 }, () => {
  async function editName(user: ReturnType<typeof userEvent.setup>) {
    const dialog = await screen.findByRole('dialog', { name: 'Arrow ×12' });
    await user.click(within(dialog).getByRole('button', { name: 'Edit' }));
    const name = await within(dialog).findByRole('textbox', { name: /^Name/ });
    await user.clear(name);
    await user.type(name, 'Silvered arrow');
    return { dialog, name };
  }

  it('asks before Escape throws them away, and Keep editing goes back to them', async () => {
    const { user, closed } = renderClosable();
    const { dialog, name } = await editName(user);
    expect(hasUnsavedChanges()).toBe(true);

    await user.keyboard('{Escape}');
    const ask = await screen.findByRole('dialog', { name: 'Close without saving?' });
    expect(ask).toHaveTextContent('You have unsaved changes.');
    expect(screen.getByRole('dialog', { name: 'Arrow ×12' })).toBeInTheDocument();
    expect(closed).not.toHaveBeenCalled();

    await user.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Close without saving?' })).not.toBeInTheDocument(),
    );
    expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveValue('Silvered arrow');
    // Mantine gives it back on a timer as the question closes: a loaded machine takes its time.
    await waitFor(() => expect(name).toHaveFocus(), { timeout: 3000 });
    expect(closed).not.toHaveBeenCalled();

    // Escape in the question is Keep editing too; Discard changes throws the edit away and goes back to
    // the item (Escape backs out one level), and the next Escape closes the item.
    await user.keyboard('{Escape}');
    await screen.findByRole('dialog', { name: 'Close without saving?' });
    await user.keyboard('{Escape}');
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Close without saving?' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('dialog', { name: 'Arrow ×12' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    const again = await screen.findByRole('dialog', { name: 'Close without saving?' });
    await user.click(within(again).getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Edit' })).toHaveFocus());
    expect(closed).not.toHaveBeenCalled();
    expect(hasUnsavedChanges()).toBe(false);
    await user.keyboard('{Escape}');
    expect(closed).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('keeps the question open when a browser hands the same Escape to it as well', async () => {
    // Mantine's dialogs listen for Escape on the window. A browser runs React's work between one listener
    // and the next, so the question, opened by the item's listener, heard the same Escape and closed at
    // once. jsdom runs it only after the last listener: each one is called here as a browser calls it.
    const keydowns: EventListenerOrEventListenerObject[] = [];
    const add = window.addEventListener.bind(window);
    const remove = window.removeEventListener.bind(window);
    vi.spyOn(window, 'addEventListener').mockImplementation((type, listener, options) => {
      if (type === 'keydown' && listener) keydowns.push(listener);
      add(type, listener, options);
    });
    vi.spyOn(window, 'removeEventListener').mockImplementation((type, listener, options) => {
      if (type === 'keydown') keydowns.splice(keydowns.indexOf(listener as EventListener) >>> 0, 1);
      remove(type, listener, options);
    });
    const pressEscapeAsABrowser = () => {
      const event = new KeyboardEvent('keydown', { key: 'Escape' });
      for (const listener of [...keydowns])
        act(() => (typeof listener === 'function' ? listener(event) : listener.handleEvent(event)));
    };
    const { user, closed } = renderClosable();
    await editName(user);

    pressEscapeAsABrowser();
    expect(await screen.findByRole('dialog', { name: 'Close without saving?' })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByRole('dialog', { name: 'Close without saving?' })).toBeInTheDocument();
    expect(closed).not.toHaveBeenCalled();

    // And the Escape that closes the question is its alone: the item stays, and is not asked about again.
    pressEscapeAsABrowser();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Close without saving?' })).not.toBeInTheDocument(),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('dialog', { name: 'Close without saving?' })).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Arrow ×12' })).toBeInTheDocument();
    expect(closed).not.toHaveBeenCalled();
  });

  it('asks on the close button too', async () => {
    const { user, closed } = renderClosable();
    const { dialog } = await editName(user);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(await screen.findByRole('dialog', { name: 'Close without saving?' })).toBeInTheDocument();
    expect(closed).not.toHaveBeenCalled();
  });

  it('closes at once with nothing changed, and Cancel asks first, as Escape does', async () => {
    const { user, closed } = renderClosable();
    const { dialog } = await editName(user);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const ask = await screen.findByRole('dialog', { name: 'Close without saving?' });
    await user.click(within(ask).getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Edit' })).toHaveFocus());
    expect(hasUnsavedChanges()).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Edit' }));
    await within(dialog).findByRole('textbox', { name: /^Name/ });
    // Escape backs out one level: the untouched form, then the item, neither asked about.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Edit' })).toHaveFocus());
    expect(closed).not.toHaveBeenCalled();
    await user.keyboard('{Escape}');
    expect(closed).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog', { name: 'Close without saving?' })).not.toBeInTheDocument();
  });
});

describe('Escape in a form of the item dialog', { timeout: 20_000 }, () => {
  // Escape backs out one level, as Cancel does: an untouched form goes back to the item (a second Escape
  // closes it); a form with something typed asks first, in the words of the unsaved-edit question.
  it.each([
    ['Edit', 'textbox', /^Name/],
    ['Split', 'textbox', /^Split amount/],
    ['Clone to template', 'textbox', /^Template name/],
    ['Transfer', 'combobox', 'Destination'],
    ['Give to...', 'combobox', 'Give to'],
  ])('goes back from an untouched %s form to the item, then closes it', async (action, role, field) => {
    const { user, closed } = renderClosable();
    const dialog = await screen.findByRole('dialog', { name: 'Arrow ×12' });
    await user.click(within(dialog).getByRole('button', { name: action }));
    await waitFor(() => expect(within(dialog).getByRole(role, { name: field })).toHaveFocus());
    // A searchable select opens its list as it takes the focus: the first Escape closes only the list.
    const input = within(dialog).getByRole(role, { name: field });
    if (input.getAttribute('aria-expanded') === 'true') {
      await user.keyboard('{Escape}');
      await waitFor(() => expect(input).toHaveAttribute('aria-expanded', 'false'));
      expect(input).toHaveFocus();
    }

    await user.keyboard('{Escape}');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: action })).toHaveFocus());
    expect(within(dialog).queryByRole(role, { name: field })).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Close without saving?' })).not.toBeInTheDocument();
    expect(closed).not.toHaveBeenCalled();

    await user.keyboard('{Escape}');
    expect(closed).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['Split', /^Split amount/, '3'],
    ['Clone to template', /^Template name/, 'Silver arrows'],
    ['Transfer', /^Quantity to move/, '5'],
  ])('asks before Escape throws away what was typed in %s', async (action, field, typed) => {
    const { user, closed } = renderClosable();
    const dialog = await screen.findByRole('dialog', { name: 'Arrow ×12' });
    await user.click(within(dialog).getByRole('button', { name: action }));
    const input = await within(dialog).findByRole('textbox', { name: field });
    await user.clear(input);
    await user.type(input, typed);
    expect(hasUnsavedChanges()).toBe(true);

    await keepEditingWhenAsked(user, () => user.keyboard('{Escape}'));
    expect(within(dialog).getByRole('textbox', { name: field })).toHaveValue(typed);
    expect(closed).not.toHaveBeenCalled();

    // Discard changes throws the form away, one level: the item stays open, focus on the form's button.
    await user.keyboard('{Escape}');
    const again = await screen.findByRole('dialog', { name: 'Close without saving?' });
    await user.click(within(again).getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: action })).toHaveFocus());
    expect(closed).not.toHaveBeenCalled();
    expect(hasUnsavedChanges()).toBe(false);
  });

  it('asks on the close button with a Give to... recipient chosen', async () => {
    const { user, closed } = renderClosable();
    const dialog = await screen.findByRole('dialog', { name: 'Arrow ×12' });
    await user.click(within(dialog).getByRole('button', { name: 'Give to...' }));
    await user.click(await within(dialog).findByRole('combobox', { name: 'Give to' }));
    await user.click(await screen.findByRole('option', { name: /Brom/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(await screen.findByRole('dialog', { name: 'Close without saving?' })).toBeInTheDocument();
    expect(closed).not.toHaveBeenCalled();
  });
});

describe('Cancel in a form of the item dialog', { timeout: 20_000 }, () => {
  // Cancel does what Escape does: back to the item, not out of it (spec/02 §4 "Item edit: view mode to
  // edit mode, then save or cancel"), asking first when something was typed, in the modal and the sheet.
  const otherArrows = buildItem({ id: 'item-2', quantity: 8 });
  const moreArrows = buildItem({ id: 'item-3', quantity: 3 });

  /** With two other plain stacks of arrows in the backpack, so that Merge is offered. */
  const renderWithOtherStacks = (device: 'desktop' | 'mobile') =>
    renderClosable({ device, backpackItems: [arrows, otherArrows, moreArrows] });

  async function openForm(user: ReturnType<typeof userEvent.setup>, action: string) {
    const dialog = await screen.findByRole('dialog', { name: 'Arrow ×12' });
    await user.click(await within(dialog).findByRole('button', { name: action }));
    return dialog;
  }

  const forms = [
    'Edit',
    'Transfer',
    'Give to...',
    'Split',
    'Merge with another stack',
    'Clone to template',
  ] as const;
  const cases = (['desktop', 'mobile'] as const).flatMap((device) =>
    forms.map((action) => [action, device] as const),
  );

  it.each(cases)('goes back from an untouched %s form to the item on %s', async (action, device) => {
    const { user, closed } = renderWithOtherStacks(device);
    const dialog = await openForm(user, action);
    if (device === 'mobile') expect(dialog.closest('.mantine-Drawer-root')).not.toBeNull();
    await user.click(await within(dialog).findByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(within(dialog).getByRole('button', { name: action })).toHaveFocus(), {
      timeout: 5_000,
    });
    expect(within(dialog).queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Arrow ×12' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Close without saving?' })).not.toBeInTheDocument();
    expect(closed).not.toHaveBeenCalled();
  });

  /** Types or chooses something in the form, and says how to find it again. */
  const typeInto: Record<
    string,
    (user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement) => Promise<() => void>
  > = {
    Edit: async (user, dialog) => {
      const name = await within(dialog).findByRole('textbox', { name: /^Name/ });
      await user.clear(name);
      await user.type(name, 'Silvered arrow');
      return () =>
        expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveValue('Silvered arrow');
    },
    Transfer: async (user, dialog) => {
      const quantity = await within(dialog).findByRole('textbox', { name: /^Quantity to move/ });
      await user.clear(quantity);
      await user.type(quantity, '5');
      return () =>
        expect(within(dialog).getByRole('textbox', { name: /^Quantity to move/ })).toHaveValue('5');
    },
    'Give to...': async (user, dialog) => {
      await user.click(await within(dialog).findByRole('combobox', { name: 'Give to' }));
      await user.click(await screen.findByRole('option', { name: /Brom/ }));
      return () =>
        expect(within(dialog).getByRole<HTMLInputElement>('combobox', { name: 'Give to' }).value).toMatch(
          /^Brom/,
        );
    },
    'Merge with another stack': async (user, dialog) => {
      await user.click(await within(dialog).findByRole('combobox', { name: 'Stack to merge with' }));
      await user.click(await screen.findByRole('option', { name: 'Arrow ×3' }));
      return () =>
        expect(within(dialog).getByRole('combobox', { name: 'Stack to merge with' })).toHaveValue('Arrow ×3');
    },
  };
  const typedCases = (['desktop', 'mobile'] as const).flatMap((device) =>
    Object.keys(typeInto).map((action) => [action, device] as const),
  );

  it.each(typedCases)('asks before Cancel throws away what was typed in %s on %s', async (action, device) => {
    const { user, closed } = renderWithOtherStacks(device);
    const dialog = await openForm(user, action);
    const stillTyped = await (typeInto[action] ?? (() => Promise.reject(new Error(action))))(user, dialog);
    expect(hasUnsavedChanges()).toBe(true);

    await keepEditingWhenAsked(user, () =>
      user.click(within(dialog).getByRole('button', { name: 'Cancel' })),
    );
    stillTyped();
    expect(closed).not.toHaveBeenCalled();

    // Discard changes leaves only the form: the item stays open, focus on the button that opened the form.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const again = await screen.findByRole('dialog', { name: 'Close without saving?' });
    await user.click(within(again).getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: action })).toHaveFocus(), {
      timeout: 5_000,
    });
    expect(screen.getByRole('dialog', { name: 'Arrow ×12' })).toBeInTheDocument();
    expect(closed).not.toHaveBeenCalled();
    expect(hasUnsavedChanges()).toBe(false);
  });
});

describe('Take in a loot stack’s dialog', { timeout: 20_000 }, () => {
  // Take is the only form of a loot stack's dialog, so Escape closes it: with a number typed or another
  // container chosen it asks first, as the item's forms do, and so does the close button and leaving the page.
  const loot = { lootId: 'loot-1', lootName: 'Dragon hoard', partyId: 'party-1', blocked: null };

  const renderLootStack = (device: 'desktop' | 'mobile') => renderClosable({ device, loot });

  it.each(['desktop', 'mobile'] as const)(
    'asks before Escape or the close button throws away a number typed, on %s',
    async (device) => {
      const { user, closed } = renderLootStack(device);
      const dialog = await screen.findByRole('dialog', { name: 'Arrow ×12' });
      const quantity = within(dialog).getByRole('textbox', { name: 'Quantity' });
      await user.clear(quantity);
      await user.type(quantity, '4');
      expect(hasUnsavedChanges()).toBe(true);

      await keepEditingWhenAsked(user, () => user.keyboard('{Escape}'));
      expect(within(dialog).getByRole('textbox', { name: 'Quantity' })).toHaveValue('4');
      expect(closed).not.toHaveBeenCalled();

      await user.click(within(dialog).getByRole('button', { name: 'Close' }));
      const again = await screen.findByRole('dialog', { name: 'Close without saving?' });
      expect(closed).not.toHaveBeenCalled();
      await user.click(within(again).getByRole('button', { name: 'Discard changes' }));
      expect(closed).toHaveBeenCalledTimes(1);
      expect(hasUnsavedChanges()).toBe(false);
    },
  );

  it('asks with another container chosen, and closes at once with nothing changed', async () => {
    const { user, closed } = renderLootStack('desktop');
    const dialog = await screen.findByRole('dialog', { name: 'Arrow ×12' });
    expect(hasUnsavedChanges()).toBe(false);
    await user.click(within(dialog).getByRole('combobox', { name: 'Take into' }));
    await user.click(await screen.findByRole('option', { name: /Sack/ }));
    expect(hasUnsavedChanges()).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    const ask = await screen.findByRole('dialog', { name: 'Close without saving?' });
    await user.click(within(ask).getByRole('button', { name: 'Discard changes' }));
    expect(closed).toHaveBeenCalledTimes(1);
  });

  it('closes at once on Escape with nothing changed', async () => {
    const { user, closed } = renderLootStack('desktop');
    await screen.findByRole('dialog', { name: 'Arrow ×12' });
    await user.keyboard('{Escape}');
    expect(closed).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog', { name: 'Close without saving?' })).not.toBeInTheDocument();
  });
});
