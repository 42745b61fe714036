import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/inventory-fixtures';
import { ConvertCurrencyDialog } from './convert-currency-dialog';

afterEach(() => vi.unstubAllGlobals());

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
