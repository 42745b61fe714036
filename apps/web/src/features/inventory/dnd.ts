import {
  type CollisionDetection,
  KeyboardCode,
  type KeyboardCoordinateGetter,
  pointerWithin,
  rectIntersection,
} from '@dnd-kit/core';
import type { CSSProperties } from 'react';

// Shared with the shops' stock shelf, which is dragged into the same workspace.
export { useDragId } from '../../lib/drag-id';

/** Pointer drops land where the pointer is; keyboard drops (no pointer) land where the item overlaps. */
export const panelCollision: CollisionDetection = (args) => {
  const byPointer = pointerWithin(args);
  return byPointer.length > 0 ? byPointer : rectIntersection(args);
};

/**
 * Styles of a drag handle: the grab cursor and no text selection (nor the long-press callout) while a
 * press turns into a drag. Panning stays: a touch drag starts after a press and hold (the workspace's
 * TouchSensor), so a finger that moves at once scrolls the page.
 */
export const dragHandleStyle: CSSProperties = {
  cursor: 'grab',
  userSelect: 'none',
  WebkitUserSelect: 'none',
  WebkitTouchCallout: 'none',
  touchAction: 'manipulation',
};

/** Touch drags start after a press and hold this long without moving more than the tolerance. */
export const TOUCH_DRAG_DELAY_MS = 250;
export const TOUCH_DRAG_TOLERANCE_PX = 8;

const STEP_PX = 25;
const directions: Record<string, [number, number]> = {
  [KeyboardCode.Right]: [1, 0],
  [KeyboardCode.Left]: [-1, 0],
  [KeyboardCode.Down]: [0, 1],
  [KeyboardCode.Up]: [0, -1],
};

/**
 * Keyboard dragging: Left/Right jump straight to the next panel (a drop zone) in that direction, so one key
 * press moves an item across the workspace; Up/Down move in small steps.
 */
export const panelJumpCoordinates: KeyboardCoordinateGetter = (event, { currentCoordinates, context }) => {
  const direction = directions[event.code];
  if (!direction) return undefined;
  event.preventDefault();
  const [dx, dy] = direction;
  const { collisionRect, droppableRects, droppableContainers } = context;
  if (dy === 0 && collisionRect) {
    const cx = collisionRect.left + collisionRect.width / 2;
    const cy = collisionRect.top + collisionRect.height / 2;
    let best: { x: number; y: number; distance: number } | null = null;
    for (const container of droppableContainers.getEnabled()) {
      // Measured by dnd-kit just after the drag starts; a key pressed before that (a busy phone) reads the
      // zone from the page itself rather than stepping 25 px and missing the panel.
      const rect = droppableRects.get(container.id) ?? container.node.current?.getBoundingClientRect();
      if (!rect) continue;
      // Only zones wholly on that side count: the panel the item is in is never "to the right" of it.
      const beyond = dx > 0 ? rect.left > cx : rect.right < cx;
      if (!beyond) continue;
      const tx = rect.left + rect.width / 2;
      const distance = tx - cx;
      const ty = Math.min(Math.max(cy, rect.top + collisionRect.height), rect.bottom - collisionRect.height);
      if (!best || Math.abs(distance) < best.distance) best = { x: tx, y: ty, distance: Math.abs(distance) };
    }
    if (best) return { x: currentCoordinates.x + (best.x - cx), y: currentCoordinates.y + (best.y - cy) };
  }
  return { x: currentCoordinates.x + dx * STEP_PX, y: currentCoordinates.y + dy * STEP_PX };
};
