import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { buildContainer, renderWithProviders } from '../test/inventory-fixtures';
import { ContainerSourceSelect, sourceOptionLabel } from './container-source-select';

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

describe('ContainerSourceSelect with many containers', () => {
  it('shows the start of the chosen container’s label, its name, not the end of it', async () => {
    // Review (touch, Dual view at 1024 px): after a tap the field showed "…Vex Nightwhisper) · 79% full · 39/60
    // slots", scrolled to the caret at the end of the label, and not which container the panel shows.
    function Picker() {
      const [value, setValue] = useState<string | null>(backpack.id);
      return <ContainerSourceSelect containers={[backpack, quiver]} value={value} onChange={setValue} />;
    }
    renderWithProviders(<Picker />);
    const user = userEvent.setup();
    const source = screen.getByRole<HTMLInputElement>('combobox', { name: 'Source' });
    await user.click(source);
    await user.click(await screen.findByRole('option', { name: sourceOptionLabel(quiver) }));
    await waitFor(() => expect(source).toHaveValue(sourceOptionLabel(quiver)));
    await waitFor(() => expect([source.selectionStart, source.selectionEnd]).toEqual([0, 0]));
    expect(source.scrollLeft).toBe(0);
  });

  it('finds a container by typing, its owner’s name too, and groups the options by owner', async () => {
    const stash = buildContainer({
      id: 'stash',
      name: 'Party Stash',
      owner: { type: 'party', id: 'party-1', name: 'Night Watch' },
    });
    const saddlebag = buildContainer({
      id: 'saddlebag',
      name: 'Saddlebag',
      owner: { type: 'character', id: 'ch-brom', name: 'Brom' },
    });
    const onChange = vi.fn();
    renderWithProviders(
      <ContainerSourceSelect
        containers={[backpack, quiver, stash, saddlebag]}
        value={null}
        onChange={onChange}
      />,
    );
    const user = userEvent.setup();
    const source = screen.getByRole('combobox', { name: 'Source' });
    await user.click(source);
    const groupNames = screen
      .getAllByRole('group')
      .map((group) => document.getElementById(group.getAttribute('aria-labelledby') ?? '')?.textContent);
    expect(groupNames).toEqual(['Aria', 'Night Watch', 'Brom']);
    await user.type(source, 'brom');
    expect(screen.getAllByRole('option').map((o) => (o.textContent ?? '').split(' · ')[0])).toEqual([
      'Saddlebag (Brom)',
    ]);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenCalledWith(saddlebag.id);
  });
});

describe('sourceOptionLabel', () => {
  const limits = { max: 50, slots_max: 20, enforces: { weight: true, slots: true } };

  it('says percent full as the capacity bar does, and never 0 % of a container holding something', () => {
    const label = sourceOptionLabel(buildContainer({ capacity: { ...limits, used: 0.15, slots_used: 1 } }));
    expect(label).toBe('Backpack (Aria) · <1% full · 1/20 slots');
  });

  it('says a container holding more than it may is over capacity, at its real percentage', () => {
    const label = sourceOptionLabel(
      buildContainer({ capacity: { ...limits, used: 75, slots_max: 2, slots_used: 6 } }),
    );
    expect(label).toBe('Backpack (Aria) · over capacity · 150% full · 6/2 slots');
  });

  it('groups the thousands of slot counts as it groups a weight’s', () => {
    const vault = buildContainer({
      capacity: { ...limits, max: 100_000, used: 1_250, slots_max: 100_000, slots_used: 1_500 },
    });
    expect(sourceOptionLabel(vault)).toBe('Backpack (Aria) · 1% full · 1,500/100,000 slots');
    const unlimited = buildContainer({
      capacity: { ...limits, max: null, used: 1_250, slots_max: null, slots_used: 1_500 },
    });
    expect(sourceOptionLabel(unlimited)).toBe(
      'Backpack (Aria) · 1,250 lbs (unlimited) · 1,500 slots (unlimited)',
    );
  });

  it('counts one slot in the singular without a slot limit, and says there is no limit', () => {
    const label = sourceOptionLabel(
      buildContainer({ capacity: { ...limits, max: null, slots_max: null, used: 2, slots_used: 1 } }),
    );
    expect(label).toBe('Backpack (Aria) · 2 lbs (unlimited) · 1 slot (unlimited)');
  });

  it('never reads an empty unlimited container as one of capacity 0', () => {
    const pouch = buildContainer({
      name: 'Belt Pouch',
      is_primary: false,
      capacity: { ...limits, max: null, slots_max: null, used: 0, slots_used: 0 },
    });
    expect(sourceOptionLabel(pouch)).toBe('Belt Pouch (Aria) · 0 lbs (unlimited) · 0 slots (unlimited)');
    const slotsOnly = buildContainer({ capacity: { ...limits, max: null, used: 0, slots_used: 3 } });
    expect(sourceOptionLabel(slotsOnly)).toBe('Backpack (Aria) · 0 lbs (unlimited) · 3/20 slots');
  });
});
