import { useCallback, useRef } from 'react';

/**
 * One request at a time from a button or a form: a double click or a second Enter arrives before React
 * has drawn the button disabled, so `isPending` alone lets a second request out (two coin conversions,
 * a success and a "not found" for one delete). `start` is run only when the last one has settled: its own
 * promise (`mutateAsync`), whatever the answer, not the mutate call's `onSettled`, which never runs once the
 * component resets its mutation.
 *
 * `subject`: what the form is about, in a form that stays mounted for one subject after another (the trade
 * dialog's offer). A new one is a new form, not a second press: the last subject's request, still
 * refreshing what it changed, no longer holds it shut. A Buy pressed for the next item then did nothing
 * (CI's shops e2e).
 */
export function useSingleFlight(subject?: unknown): (start: () => Promise<unknown>) => void {
  const flight = useRef<{ subject: unknown } | null>(null);
  return useCallback(
    (start) => {
      if (flight.current !== null && flight.current.subject === subject) return;
      const mine = { subject };
      flight.current = mine;
      const open = () => {
        if (flight.current === mine) flight.current = null;
      };
      // A refusal is the mutation's to show (its `error`); here it only opens the gate.
      start().then(open, open);
    },
    [subject],
  );
}
