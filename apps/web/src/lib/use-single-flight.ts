import { useCallback, useRef } from 'react';

/**
 * One request at a time from a button or a form: a double click or a second Enter arrives before React
 * has drawn the button disabled, so `isPending` alone lets a second request out (two coin conversions,
 * a success and a "not found" for one delete). `start` is run only when the last one has settled; it
 * calls `settled` when its request is done, whatever the answer.
 */
export function useSingleFlight(): (start: (settled: () => void) => void) => void {
  const inFlight = useRef(false);
  return useCallback((start) => {
    if (inFlight.current) return;
    inFlight.current = true;
    start(() => {
      inFlight.current = false;
    });
  }, []);
}
