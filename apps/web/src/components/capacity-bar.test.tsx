import type { Capacity, EncumbranceLevel } from '@haversack/contracts';
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  CapacityBar,
  capacityLevel,
  formatPercent,
  slotsFullMessage,
  slotsOverMessage,
  slotsRunningOutMessage,
  weightFullMessage,
  weightNearlyFullMessage,
  weightOverMessage,
} from './capacity-bar';

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
    [100, 'error'],
    [100.5, 'over'],
  ] as const)('%d percent is %s', (percent, level) => {
    expect(capacityLevel(percent)).toBe(level);
  });
});

describe('CapacityBar counts', () => {
  it('groups the thousands of the slots as of the weight: "1,500 / 100,000", not "1500 / 100000"', () => {
    renderBar(capacity({ used: 1_250, max: 100_000, slots_used: 1_500, slots_max: 100_000 }));
    expect(screen.getByTestId('capacity-weight')).toHaveTextContent('1,250 / 100,000 lbs · 1%');
    expect(screen.getByTestId('capacity-slots')).toHaveTextContent('1,500 / 100,000 · 2%');
  });

  it('groups them without a slot limit too', () => {
    renderBar(capacity({ slots_used: 12_345, slots_max: null }));
    expect(screen.getByTestId('capacity-slots')).toHaveTextContent('12,345 (unlimited)');
  });
});

describe('CapacityBar', () => {
  it.each([
    [74, 'ok', false],
    [75, 'warning', false],
    [89, 'warning', false],
    [90, 'error', true],
  ] as const)('weight at %d percent is %s; the nearly-full message shows: %s', (used, level, message) => {
    renderBar(capacity({ used }));
    expect(screen.getByTestId('capacity-weight')).toHaveAttribute('data-level', level);
    if (message) expect(screen.getByText(weightNearlyFullMessage)).toBeInTheDocument();
    else expect(screen.queryByText(weightNearlyFullMessage)).not.toBeInTheDocument();
  });

  it.each([
    [74, 'ok', false],
    [75, 'warning', false],
    [89, 'warning', false],
    [90, 'error', true],
  ] as const)('slots at %d percent is %s; the running-out message shows: %s', (slotsUsed, level, message) => {
    renderBar(capacity({ slots_used: slotsUsed }));
    expect(screen.getByTestId('capacity-slots')).toHaveAttribute('data-level', level);
    if (message) expect(screen.getByText(slotsRunningOutMessage)).toBeInTheDocument();
    else expect(screen.queryByText(slotsRunningOutMessage)).not.toBeInTheDocument();
  });

  it('draws no progress bar for a limit there is not: a screen reader heard "0%" of a pouch in use', () => {
    renderBar(capacity({ used: 23.14, max: null, slots_used: 5, slots_max: null }));
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    // What it holds is said as on screen.
    expect(screen.getByTestId('capacity-weight')).toHaveTextContent('23.14 lbs (unlimited)');
    expect(screen.getByTestId('capacity-slots')).toHaveTextContent('5 (unlimited)');
  });

  it('keeps the bar of a limit beside one without (weight limited, slots not)', () => {
    renderBar(capacity({ used: 23, max: 50, slots_used: 5, slots_max: null }));
    expect(screen.getByRole('progressbar', { name: 'Weight used' })).toHaveAttribute('aria-valuenow', '46');
    expect(screen.queryByRole('progressbar', { name: 'Slots used' })).not.toBeInTheDocument();
  });

  it('shows an unlimited weight without a level and hides limits the party does not track', () => {
    renderBar(capacity({ used: 500, max: null, enforces: { weight: true, slots: false } }));
    expect(screen.getByTestId('capacity-weight')).toHaveAttribute('data-level', 'ok');
    expect(screen.getByText(/unlimited/)).toBeInTheDocument();
    expect(screen.queryByTestId('capacity-slots')).not.toBeInTheDocument();
  });

  it('draws no limit and no bar in a party that tracks no encumbrance, whatever the container holds', () => {
    // Review (coins, 9): a load bar where weight is not tracked. A container header has none either.
    renderBar(
      capacity({
        used: 6_173.24,
        max: 50,
        slots_used: 9,
        slots_max: 2,
        enforces: { weight: false, slots: false },
      }),
    );
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByTestId('capacity-bar')).not.toHaveTextContent('/');
    expect(screen.getByText('This party does not track encumbrance.')).toBeInTheDocument();
  });

  it('says a container holding more than it may is over capacity, with its real percentages', () => {
    // The party tracked no encumbrance when the container was filled: 6 stacks and 75 lb in a 50 lb, 2-slot bag.
    renderBar(capacity({ used: 75, max: 50, slots_used: 6, slots_max: 2 }));
    const weight = screen.getByTestId('capacity-weight');
    expect(weight).toHaveAttribute('data-level', 'over');
    expect(weight).toHaveTextContent('75 / 50 lbs · 150%');
    expect(weight).toHaveTextContent(weightOverMessage);
    expect(weight).not.toHaveTextContent(weightNearlyFullMessage);
    expect(weight).not.toHaveTextContent(weightFullMessage);
    expect(screen.getByRole('progressbar', { name: 'Weight used' })).toHaveAttribute('aria-valuenow', '100');
    // The bar is full to the eye, but a screen reader is told the real percentage, and that it is over
    // (Mantine's own value text said "100%"); drawn striped, in a deeper red than the 90 % warning.
    expect(screen.getByRole('progressbar', { name: 'Weight used' })).toHaveAttribute(
      'aria-valuetext',
      '150%, over capacity',
    );
    expect(screen.getByRole('progressbar', { name: 'Slots used' })).toHaveAttribute(
      'aria-valuetext',
      '300%, over capacity',
    );
    expect(screen.getByRole('progressbar', { name: 'Weight used' })).toHaveAttribute('data-striped', 'true');
    const slots = screen.getByTestId('capacity-slots');
    expect(slots).toHaveAttribute('data-level', 'over');
    expect(slots).toHaveTextContent('6 / 2 · 300%');
    expect(slots).toHaveTextContent(slotsOverMessage);
    expect(slots).not.toHaveTextContent(slotsRunningOutMessage);
    expect(slots).not.toHaveTextContent(slotsFullMessage);
  });

  it('says a container exactly full is full, not nearly full', () => {
    renderBar(capacity({ used: 0.25, max: 0.25, slots_used: 100 }));
    expect(screen.getByTestId('capacity-weight')).toHaveTextContent('0.25 / 0.25 lbs · 100%');
    expect(screen.getByText('Container is full!')).toBeInTheDocument();
    expect(screen.getByText('No slots left!')).toBeInTheDocument();
    expect(screen.queryByText('Container is nearly full!')).not.toBeInTheDocument();
    expect(screen.queryByText('Running out of slots!')).not.toBeInTheDocument();
  });

  it("keeps the spec's nearly-full messages just under full", () => {
    renderBar(capacity({ used: 4.99, max: 5, slots_used: 99 }));
    expect(screen.getByText('Container is nearly full!')).toBeInTheDocument();
    expect(screen.getByText('Running out of slots!')).toBeInTheDocument();
  });

  it('never says 0 % of a container that holds something', () => {
    renderBar(capacity({ used: 0.3, max: 100 }));
    expect(screen.getByTestId('capacity-weight')).toHaveTextContent('0.3 / 100 lbs · <1%');
    expect(screen.getByRole('progressbar', { name: 'Weight used' })).toHaveAttribute('aria-valuetext', '<1%');
    expect(screen.getByRole('progressbar', { name: 'Weight used' })).not.toHaveAttribute('data-striped');
  });
});

describe('formatPercent', () => {
  it.each([
    [0, '0%'],
    [0.3, '<1%'],
    [45.4, '45%'],
    [99.6, '99%'],
    [100, '100%'],
    [100.2, '101%'],
    [300, '300%'],
    [400_001, '400,001%'],
  ])('says %d percent as %s', (percent, said) => {
    expect(formatPercent(percent)).toBe(said);
  });
});

describe('CapacityBar as a character’s load (the primary container carries the character’s max weight)', () => {
  const colourOf = (name: string) =>
    screen.getByRole('progressbar', { name }).style.getPropertyValue('--progress-section-color');

  function renderLoadBar(value: Capacity, loadLevel: EncumbranceLevel | null) {
    render(
      <MantineProvider env="test">
        <CapacityBar capacity={value} loadLevel={loadLevel} />
      </MantineProvider>,
    );
  }

  it('colours the weight by the encumbrance level the badge beside it says, not by the percent', () => {
    // Review: "Load 17.8 / 50 lbs", "Encumbered", and a green bar at 36 %.
    renderLoadBar(capacity({ used: 17.8, max: 50 }), 'encumbered');
    expect(colourOf('Weight used')).toContain('yellow');
    // The slots are the container's own: their colour stays the percent's.
    expect(colourOf('Slots used')).toContain('teal');
  });

  it.each([
    ['unencumbered', 10, 'teal'],
    ['heavily_encumbered', 40, 'orange'],
    ['over_capacity', 55, 'red'],
  ] as const)('colours a %s load %s / 50 lbs %s', (level, used, colour) => {
    renderLoadBar(capacity({ used, max: 50 }), level);
    expect(colourOf('Weight used')).toContain(colour);
  });

  it('keeps the percent colours without a level (another container, or no level known)', () => {
    renderLoadBar(capacity({ used: 17.8, max: 50 }), null);
    expect(colourOf('Weight used')).toContain('teal');
  });
});
