import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/inventory-fixtures';
import { WorkspaceTopBar } from './workspace-top-bar';

function Harness({
  back,
  owner = 'Nim Quickfingers',
  filters = { rarity: null, minValue: null, maxValue: null },
}: {
  back?: { href: string; label: string };
  owner?: string;
  filters?: { rarity: string | null; minValue: number | null; maxValue: number | null };
}) {
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  return (
    <WorkspaceTopBar
      owner={owner}
      back={back}
      titleOrder={1}
      wide
      searchOpen={open}
      onSearchOpenChange={setOpen}
      search={search}
      onSearchChange={setSearch}
      filters={filters}
      onFiltersChange={() => undefined}
      viewMode="single"
      onViewModeChange={() => undefined}
      layout="grid"
      onLayoutChange={() => undefined}
      canCreate
      onCreateContainer={() => undefined}
    />
  );
}

describe('WorkspaceTopBar search', () => {
  it('opens on Ctrl+F and Cmd+F, clears, and closes on Escape', () => {
    renderWithProviders(<Harness />);
    expect(screen.queryByPlaceholderText('Search items...')).not.toBeInTheDocument();
    fireEvent.keyDown(document.documentElement, { key: 'f', code: 'KeyF', ctrlKey: true });
    const input = screen.getByPlaceholderText('Search items...');
    expect(input).toHaveFocus();
    // No longer than the server searches: a 10,000-character paste showed the list's error state.
    expect(input).toHaveAttribute('maxlength', '200');

    fireEvent.change(input, { target: { value: 'arrow' } });
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(input).toHaveValue('');

    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByPlaceholderText('Search items...')).not.toBeInTheDocument();
    // The keyboard goes back to the button that opens the search, not to <body>.
    expect(screen.getByRole('button', { name: 'Search items' })).toHaveFocus();

    fireEvent.keyDown(document.documentElement, { key: 'f', code: 'KeyF', metaKey: true });
    expect(screen.getByPlaceholderText('Search items...')).toBeInTheDocument();
  });

  it('opens on Ctrl+F after a click on a segmented control (a radio input), not in a text field', () => {
    renderWithProviders(<Harness />);
    const dual = screen.getByRole('radio', { name: 'Dual' });
    dual.focus();
    const fromRadio = fireEvent.keyDown(dual, { key: 'f', code: 'KeyF', ctrlKey: true });
    expect(fromRadio).toBe(false);
    const input = screen.getByPlaceholderText('Search items...');
    expect(input).toHaveFocus();

    // In a field where text is typed, Ctrl+F is the browser's.
    const minimum = screen.getByLabelText('Minimum value (gp)', { selector: 'input' });
    minimum.focus();
    expect(fireEvent.keyDown(minimum, { key: 'f', code: 'KeyF', ctrlKey: true })).toBe(true);
    expect(minimum).toHaveFocus();
  });
});

it.each(['Rarity', 'Minimum value (gp)'])(
  'closes the search on Escape in the %s filter, focus back on "Search items"',
  (filter) => {
    renderWithProviders(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Search items' }));
    const field = screen.getByLabelText(filter, { selector: 'input' });
    field.focus();
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(screen.queryByRole('search')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Search items' })).toHaveFocus();
  },
);

describe('WorkspaceTopBar title (spec/02 §2)', () => {
  it('shows a long owner whole, wrapping, not cut with an ellipsis (screen sweep: the party’s Inventory tab)', () => {
    const owner = 'The Fellowship of the Extremely Long Party Name That Goes On And On Around The Ring';
    const { unmount } = renderWithProviders(<Harness owner={owner} />);
    const shown = screen.getByTestId('workspace-owner');
    expect(shown).toHaveTextContent(owner);
    expect(shown).not.toHaveAttribute('data-truncate');
    expect(shown.style.overflowWrap).toBe('anywhere');
    unmount();
  });

  it('is "Inventory Management", with the owner as its subtitle and an optional back button', () => {
    const { unmount } = renderWithProviders(
      <Harness back={{ href: '/characters/c-1', label: 'Back to Nim Quickfingers' }} />,
    );
    const heading = screen.getByRole('heading', { level: 1, name: 'Inventory Management' });
    expect(heading).toHaveAccessibleDescription('Nim Quickfingers');
    expect(screen.getByTestId('workspace-owner')).toHaveTextContent('Nim Quickfingers');
    // The whole name is its tooltip too (review: a 100-letter name, then cut to a line, had none).
    expect(screen.getByTestId('workspace-owner')).toHaveAttribute('title', 'Nim Quickfingers');
    expect(screen.getByRole('link', { name: 'Back to Nim Quickfingers' })).toHaveAttribute(
      'href',
      '/characters/c-1',
    );
    unmount();

    renderWithProviders(<Harness />);
    expect(screen.getByRole('heading', { level: 1, name: 'Inventory Management' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Back to/ })).not.toBeInTheDocument();
  });
});

it('marks a max value below the min value on the Max field', () => {
  renderWithProviders(<Harness filters={{ rarity: null, minValue: 500, maxValue: 10 }} />);
  fireEvent.click(screen.getByRole('button', { name: 'Search items' }));
  const max = screen.getByRole('textbox', { name: 'Maximum value (gp)' });
  expect(max).toHaveAttribute('aria-invalid', 'true');
  expect(max).toHaveAccessibleDescription('Below the min');
});
