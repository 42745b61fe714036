import type { KeyboardCoordinateGetter } from '@dnd-kit/core';
import { describe, expect, it } from 'vitest';
import { panelJumpCoordinates } from './dnd';

type Arguments = Parameters<KeyboardCoordinateGetter>[1];

const rect = (left: number, top: number, width: number, height: number) => ({
  left,
  top,
  width,
  height,
  right: left + width,
  bottom: top + height,
});

/** The dragged tile at (100, 100) in the left panel; the right panel from x = 600, measured or not yet. */
function context(measured: boolean) {
  const right = rect(600, 0, 400, 800);
  const node = { current: { getBoundingClientRect: () => right } };
  return {
    currentCoordinates: { x: 100, y: 100 },
    active: 'tile',
    context: {
      collisionRect: rect(80, 80, 40, 40),
      droppableRects: new Map(measured ? [['right', right]] : []),
      droppableContainers: { getEnabled: () => [{ id: 'right', node }] },
    },
  } as unknown as Arguments;
}

const right = { code: 'ArrowRight', preventDefault: () => undefined } as KeyboardEvent;

describe('panelJumpCoordinates', () => {
  it('jumps to the middle of the next panel to the right', () => {
    expect(panelJumpCoordinates(right, context(true))).toEqual({ x: 800, y: 100 });
  });

  it('jumps as far when the key comes before dnd-kit measured the panels', () => {
    expect(panelJumpCoordinates(right, context(false))).toEqual({ x: 800, y: 100 });
  });
});
