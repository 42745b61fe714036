import type { Currency } from '@haversack/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { buildContainer, renderWithProviders } from '../test/inventory-fixtures';
import { ConvertCurrencyDialog } from './convert-currency-dialog';

restoreViewportAfterEach();

function renderDialog(coins: Partial<Record<Currency, number>>) {
  renderWithProviders(
    <ConvertCurrencyDialog
      opened
      containerId="container-1"
      containerName="Backpack"
      coins={coins}
      onClose={vi.fn()}
    />,
  );
  return {
    from: () => screen.getByRole('combobox', { name: 'From' }),
    to: () => screen.getByRole('combobox', { name: 'To' }),
  };
}

async function choose(user: ReturnType<typeof userEvent.setup>, select: HTMLElement, option: RegExp) {
  await user.click(select);
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('ConvertCurrencyDialog', () => {
  it.each([
    [{ cp: 300 }, 'Copper piece (cp)', 'Silver piece (sp)'],
    // Electrum is skipped: most tables never use it (review 2026-11).
    [{ sp: 40 }, 'Silver piece (sp)', 'Gold piece (gp)'],
    [{ ep: 4 }, 'Electrum piece (ep)', 'Gold piece (gp)'],
    [{ gp: 25 }, 'Gold piece (gp)', 'Platinum piece (pp)'],
    // Nothing is larger than platinum: the next smaller.
    [{ pp: 3 }, 'Platinum piece (pp)', 'Gold piece (gp)'],
  ])('holding %o converts from %s to %s by default', (coins, from, to) => {
    const dialog = renderDialog(coins);
    expect(dialog.from()).toHaveValue(from);
    expect(dialog.to()).toHaveValue(to);
  });

  it('offers "From" only the coins the container holds', async () => {
    const user = userEvent.setup();
    const dialog = renderDialog({ sp: 35, gp: 2 });
    await user.click(dialog.from());
    expect(await screen.findByRole('option', { name: /^Silver piece/ })).not.toHaveAttribute(
      'data-combobox-disabled',
    );
    expect(screen.getByRole('option', { name: /^Gold piece/ })).not.toHaveAttribute('data-combobox-disabled');
    for (const none of [/^Copper piece/, /^Electrum piece/, /^Platinum piece/])
      expect(screen.getByRole('option', { name: none })).toHaveAttribute('data-combobox-disabled', 'true');
  });

  it('says how many coins became how many', async () => {
    useUiStore.setState({ toasts: [] });
    mockFetch(({ url }) =>
      url.endsWith('/containers/container-1/convert_currency')
        ? success(buildContainer())
        : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    const user = userEvent.setup();
    renderDialog({ sp: 35 });
    await user.click(screen.getByRole('button', { name: 'Convert' }));
    await waitFor(() =>
      expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
        kind: 'success',
        message: 'Converted 30 sp to 3 gp',
      }),
    );
    useUiStore.setState({ toasts: [] });
  });

  it('opens with the keyboard on its first question, not on its close button', async () => {
    const dialog = renderDialog({ sp: 40 });
    await waitFor(() => expect(dialog.from()).toHaveFocus());
  });

  it('has "To" follow "From" until a coin is chosen for it, and never leaves the two the same', async () => {
    const user = userEvent.setup();
    const dialog = renderDialog({ cp: 300, sp: 40, gp: 25 });
    await choose(user, dialog.from(), /^Gold piece/);
    expect(dialog.to()).toHaveValue('Platinum piece (pp)');
    await choose(user, dialog.from(), /^Silver piece/);
    expect(dialog.to()).toHaveValue('Gold piece (gp)');

    // A coin chosen for "To" stays while "From" changes...
    await choose(user, dialog.to(), /^Copper piece/);
    await choose(user, dialog.from(), /^Gold piece/);
    expect(dialog.to()).toHaveValue('Copper piece (cp)');
    // ...unless "From" becomes that very coin.
    await choose(user, dialog.from(), /^Copper piece/);
    expect(dialog.to()).toHaveValue('Silver piece (sp)');
    expect(screen.queryByText('Choose another coin')).not.toBeInTheDocument();
  });

  it('on a phone puts "From" above "To", each the dialog’s width, so the coin names show whole', () => {
    setViewport(375, 812);
    const dialog = renderDialog({ sp: 40 });
    // Side by side, each was cut to "Silver piece..." and "Electrum pi...".
    expect(dialog.from().closest('.mantine-Group-root')).toBeNull();
    expect(dialog.from().closest('.mantine-Stack-root')).toContainElement(dialog.to());
  });

  it('keeps them side by side where there is room', () => {
    setViewport(1280, 800);
    const dialog = renderDialog({ sp: 40 });
    const row = dialog.from().closest<HTMLElement>('.mantine-Group-root');
    expect(row).toContainElement(dialog.to());
    // Half the row each: a Group that counted one child gave each the whole row, and they wrapped.
    expect(row?.style.getPropertyValue('--group-child-width')).toMatch(/^calc\(50% /);
  });
});

describe('ConvertCurrencyDialog preview', () => {
  it('says what the conversion gives and what stays, before Convert, as the quantity changes', async () => {
    renderWithProviders(
      <ConvertCurrencyDialog
        opened
        containerId="c-1"
        containerName="Pouch"
        coins={{ cp: 250 }}
        onClose={() => undefined}
      />,
    );
    // cp → sp by default: every copper converts evenly.
    expect(await screen.findByTestId('conversion-preview')).toHaveTextContent('You get 25 sp; no cp stay.');
    await userEvent.click(screen.getByRole('combobox', { name: 'To' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Gold piece (gp)' }));
    expect(screen.getByTestId('conversion-preview')).toHaveTextContent('You get 2 gp; 50 cp stay.');
    fireEvent.change(screen.getByRole('textbox', { name: /Quantity/ }), { target: { value: '100' } });
    expect(screen.getByTestId('conversion-preview')).toHaveTextContent('You get 1 gp; 150 cp stay.');
    // Not a whole number of gold: nothing converts, and the preview says so.
    fireEvent.change(screen.getByRole('textbox', { name: /Quantity/ }), { target: { value: '150' } });
    expect(screen.getByTestId('conversion-preview')).toHaveTextContent(
      'That many cp does not convert evenly into gp.',
    );
  });
});
