import type { UsageEntry } from '@haversack/contracts';
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UsageBar, usageLevel } from './usage-bar';

function renderBar(entry: UsageEntry) {
  render(
    <MantineProvider env="test">
      <UsageBar resource="characters" entry={entry} />
    </MantineProvider>,
  );
  return screen.getByTestId('usage-characters');
}

describe('usageLevel', () => {
  it.each([
    [{ used: 74, limit: 100 }, 'normal'],
    [{ used: 75, limit: 100 }, 'warning'],
    [{ used: 89, limit: 100 }, 'warning'],
    [{ used: 90, limit: 100 }, 'error'],
    [{ used: 100, limit: 100 }, 'error'],
    [{ used: 120, limit: 100 }, 'over'],
    [{ used: 3, limit: 0 }, 'over'],
    [{ used: 3, limit: null }, 'unlimited'],
    [{ used: 0, limit: 0 }, 'not_included'],
  ] as const)('%o is %s', (entry, level) => {
    expect(usageLevel(entry)).toBe(level);
  });
});

/** The colour sits on the bar's section as a CSS variable; no colour means the theme's primary. */
function barColour(): string {
  const section = screen.getByRole('progressbar');
  return section.getAttribute('style') ?? '';
}

describe('UsageBar', () => {
  it('at 74 % shows the count on an uncoloured bar', () => {
    const bar = renderBar({ used: 74, limit: 100 });
    expect(bar).toHaveAttribute('data-level', 'normal');
    expect(bar).toHaveTextContent('74 / 100');
    expect(barColour()).not.toMatch(/yellow|red/);
    expect(screen.getByRole('progressbar', { name: 'Characters: 74 of 100 used' })).toBeInTheDocument();
  });

  it('at 75 % turns the bar yellow', () => {
    const bar = renderBar({ used: 3, limit: 4 });
    expect(bar).toHaveAttribute('data-level', 'warning');
    expect(barColour()).toMatch(/yellow/);
  });

  it('at 90 % turns the bar red, and says when the limit is reached', () => {
    renderBar({ used: 9, limit: 10 });
    expect(barColour()).toMatch(/red/);
    expect(screen.getByTestId('usage-characters-summary')).not.toHaveTextContent('limit reached');
  });

  it('at the limit says so in words, not only in colour', () => {
    renderBar({ used: 1, limit: 1 });
    expect(screen.getByTestId('usage-characters-summary')).toHaveTextContent('1 / 1 · limit reached');
  });

  it('over the limit (after a downgrade) says by how much, not "limit reached"', () => {
    const bar = renderBar({ used: 10, limit: 1 });
    expect(bar).toHaveAttribute('data-level', 'over');
    expect(screen.getByTestId('usage-characters-summary')).toHaveTextContent('10 / 1 · 9 over the limit');
    expect(screen.getByTestId('usage-characters-summary')).not.toHaveTextContent('limit reached');
    expect(barColour()).toMatch(/red/);
  });

  it('a limit of 0 still counts what was made under an earlier plan', () => {
    const bar = renderBar({ used: 3, limit: 0 });
    expect(bar).toHaveAttribute('data-level', 'over');
    expect(screen.getByTestId('usage-characters-summary')).toHaveTextContent(/^3 used · Not included$/);
  });

  it('an unlimited resource shows "Unlimited" and no bar', () => {
    const bar = renderBar({ used: 3, limit: null });
    expect(bar).toHaveAttribute('data-level', 'unlimited');
    expect(bar).toHaveTextContent('3 used · Unlimited');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('a limit of 0 shows "Not included" and no bar', () => {
    const bar = renderBar({ used: 0, limit: 0 });
    expect(bar).toHaveAttribute('data-level', 'not_included');
    expect(bar).toHaveTextContent('Not included');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });
});
