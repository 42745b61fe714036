import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useSingleFlight } from './use-single-flight';

/** A request to start through the gate, answered when the test says. */
function request() {
  let answer: (ok: boolean) => void = () => {};
  const started = { count: 0 };
  const start = () => {
    started.count += 1;
    return new Promise<void>((resolve, reject) => {
      answer = (ok) => (ok ? resolve() : reject(new Error('refused')));
    });
  };
  return { start, started, answer: (ok: boolean) => answer(ok) };
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('useSingleFlight', () => {
  it('lets one request out at a time, and the next once the last is answered, refused or not', async () => {
    const { result } = renderHook(() => useSingleFlight());
    const { start, started, answer } = request();
    result.current(start);
    result.current(start);
    expect(started.count).toBe(1);
    answer(false);
    await turn();
    result.current(start);
    expect(started.count).toBe(2);
    answer(true);
    await turn();
    result.current(start);
    expect(started.count).toBe(3);
  });

  it('opens for a new subject while the last subject’s request is still out, and that one does not reopen it', async () => {
    const { result, rerender } = renderHook(({ subject }) => useSingleFlight(subject), {
      initialProps: { subject: 'backpack' },
    });
    const backpack = request();
    result.current(backpack.start);
    rerender({ subject: 'arrow' });
    const arrow = request();
    result.current(arrow.start);
    expect(arrow.started.count).toBe(1);
    // The backpack's answer comes while the arrows' request is out: the gate stays shut for the arrows.
    backpack.answer(true);
    await turn();
    result.current(arrow.start);
    expect(arrow.started.count).toBe(1);
  });
});
