import type { Capacity } from '@haversack/contracts';
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CapacityBar, capacityLevel, slotsFullMessage, weightFullMessage } from './capacity-bar';

function capacity(overrides: Partial<Capacity>): Capacity {
  return {
    used: 0,
    max: 100,
    slots_used: 0,
    slots_max: 100,
    enforces: { weight: true, slots: true },
    ...overrides,
  };
}

function renderBar(value: Capacity) {
  render(
    <MantineProvider env="test">
      <CapacityBar capacity={value} />
    </MantineProvider>,
  );
}

describe('capacityLevel (spec/02 §9: warning at 75 %, error at 90 %)', () => {
  it.each([
    [74, 'ok'],
    [75, 'warning'],
    [89, 'warning'],
    [90, 'error'],
  ] as const)('%i %% is %s', (percent, level) => {
    expect(capacityLevel(percent)).toBe(level);
  });
});

describe('CapacityBar', () => {
  it.each([
    [74, 'ok', false],
    [75, 'warning', false],
    [89, 'warning', false],
    [90, 'error', true],
  ] as const)('weight at %i %% is %s; the nearly-full message shows: %s', (used, level, message) => {
    renderBar(capacity({ used }));
    expect(screen.getByTestId('capacity-weight')).toHaveAttribute('data-level', level);
    if (message) expect(screen.getByText(weightFullMessage)).toBeInTheDocument();
    else expect(screen.queryByText(weightFullMessage)).not.toBeInTheDocument();
  });

  it.each([
    [74, 'ok', false],
    [75, 'warning', false],
    [89, 'warning', false],
    [90, 'error', true],
  ] as const)('slots at %i %% is %s; the running-out message shows: %s', (slotsUsed, level, message) => {
    renderBar(capacity({ slots_used: slotsUsed }));
    expect(screen.getByTestId('capacity-slots')).toHaveAttribute('data-level', level);
    if (message) expect(screen.getByText(slotsFullMessage)).toBeInTheDocument();
    else expect(screen.queryByText(slotsFullMessage)).not.toBeInTheDocument();
  });

  it('shows an unlimited weight without a level and hides limits the party does not track', () => {
    renderBar(capacity({ used: 500, max: null, enforces: { weight: true, slots: false } }));
    expect(screen.getByTestId('capacity-weight')).toHaveAttribute('data-level', 'ok');
    expect(screen.getByText(/unlimited/)).toBeInTheDocument();
    expect(screen.queryByTestId('capacity-slots')).not.toBeInTheDocument();
  });
});
