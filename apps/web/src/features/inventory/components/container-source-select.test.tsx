import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { buildContainer, renderWithProviders } from '../test/inventory-fixtures';
import { ContainerSourceSelect } from './container-source-select';

const backpack = buildContainer();
const quiver = buildContainer({ id: 'container-2', name: 'Quiver', is_primary: false });

describe('ContainerSourceSelect', () => {
  it('keeps its option list out of the page until the Select is first used', () => {
    renderWithProviders(
      <ContainerSourceSelect containers={[backpack, quiver]} value={backpack.id} onChange={() => {}} />,
    );
    // Hidden options (display: none) would still be in the document: none is, before a first focus.
    expect(document.querySelectorAll('[data-combobox-option]')).toHaveLength(0);

    fireEvent.focus(screen.getByRole('combobox', { name: 'Source' }));
    expect(document.querySelectorAll('[data-combobox-option]')).toHaveLength(2);
  });

  it('chooses an option with the keyboard (Tab, ArrowDown, Enter)', async () => {
    const onChange = vi.fn();
    renderWithProviders(
      <ContainerSourceSelect containers={[backpack, quiver]} value={null} onChange={onChange} />,
    );
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByRole('combobox', { name: 'Source' })).toHaveFocus();
    // The list opens on the first option, as it did when it was kept in the page from the start.
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenCalledWith(backpack.id);
  });

  it('chooses an option with the pointer', async () => {
    const onChange = vi.fn();
    renderWithProviders(
      <ContainerSourceSelect containers={[backpack, quiver]} value={backpack.id} onChange={onChange} />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Source' }));
    await user.click(await screen.findByRole('option', { name: /Quiver/ }));
    expect(onChange).toHaveBeenCalledWith(quiver.id);
  });
});
