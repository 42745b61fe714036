import { type PointerEvent, useRef, useState } from 'react';

/** spec/02 §9: a row swipes once it has moved 60 px sideways. */
export const SWIPE_THRESHOLD_PX = 60;

/**
 * Horizontal swipe on a row: right past the threshold calls onSwipeRight, left calls onSwipeLeft. The row
 * follows the finger; a click that ends a swipe is swallowed so it does not also open the item.
 */
export function useSwipe({
  enabled,
  onSwipeLeft,
  onSwipeRight,
  threshold = SWIPE_THRESHOLD_PX,
}: {
  enabled: boolean;
  onSwipeLeft: () => void;
  onSwipeRight: () => void;
  threshold?: number;
}) {
  const start = useRef<{ x: number; y: number } | null>(null);
  const swiped = useRef(false);
  const [offset, setOffset] = useState(0);

  if (!enabled) return { offset: 0, handlers: {}, consumeClick: () => false };

  const end = (event: PointerEvent<HTMLElement>) => {
    const origin = start.current;
    start.current = null;
    setOffset(0);
    if (!origin) return;
    const dx = event.clientX - origin.x;
    const dy = event.clientY - origin.y;
    if (Math.abs(dx) < threshold || Math.abs(dy) > Math.abs(dx)) return;
    swiped.current = true;
    if (dx > 0) onSwipeRight();
    else onSwipeLeft();
  };

  return {
    offset,
    handlers: {
      onPointerDown: (event: PointerEvent<HTMLElement>) => {
        start.current = { x: event.clientX, y: event.clientY };
        swiped.current = false;
      },
      onPointerMove: (event: PointerEvent<HTMLElement>) => {
        if (start.current) setOffset(Math.max(-120, Math.min(120, event.clientX - start.current.x)));
      },
      onPointerUp: end,
      onPointerCancel: () => {
        start.current = null;
        setOffset(0);
      },
    },
    /** True once for the click that follows a swipe. */
    consumeClick: () => {
      const was = swiped.current;
      swiped.current = false;
      return was;
    },
  };
}
