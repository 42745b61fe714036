import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../features/inventory/test/inventory-fixtures';
import { useUiStore } from '../stores/ui-store';
import { ThemeToggle } from './theme-toggle';

/** The window's answer to `(hover: hover)`: a mouse says yes, a touch screen no. */
function pointerCanHover(canHover: boolean) {
  const real = window.matchMedia.bind(window);
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) =>
    query === '(hover: hover)'
      ? ({ ...real(query), matches: canHover, media: query } as MediaQueryList)
      : real(query),
  );
}

afterEach(() => vi.restoreAllMocks());

describe('ThemeToggle', () => {
  it('names the next theme in a tooltip for a pointer that hovers', async () => {
    pointerCanHover(true);
    useUiStore.setState({ theme: 'light' });
    renderWithProviders(<ThemeToggle />);
    await userEvent.hover(screen.getByRole('button', { name: 'Switch to dark theme' }));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Switch to dark theme');
  });

  it('leaves no tooltip over the header after a tap on a touch screen', async () => {
    pointerCanHover(false);
    useUiStore.setState({ theme: 'light' });
    renderWithProviders(<ThemeToggle />);
    const toggle = screen.getByRole('button', { name: 'Switch to dark theme' });
    await userEvent.hover(toggle);
    await userEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Switch to light theme' })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });
});
