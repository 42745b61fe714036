import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { RESIZE_DEBOUNCE_MS, useDeviceClass } from './use-device-class';

// Through happy-dom's viewport, never by assigning `innerWidth`: an assigned width stays on the window of
// the worker the files share, and media queries and later files' viewports no longer follow it.
restoreViewportAfterEach();

describe('useDeviceClass', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const resizeTo = (next: number) => {
    setViewport(next, window.innerHeight);
    window.dispatchEvent(new Event('resize'));
  };

  it('knows the class at the first render and draws no second time for it', () => {
    setViewport(375, window.innerHeight);
    let renders = 0;
    const { result } = renderHook(() => {
      renders += 1;
      return useDeviceClass();
    });
    expect(result.current).toBe('mobile');
    act(() => vi.advanceTimersByTime(RESIZE_DEBOUNCE_MS * 2));
    expect(renders).toBe(1);
  });

  it('follows a resize once it settled, and only when the class changes', () => {
    setViewport(1280, window.innerHeight);
    let renders = 0;
    const { result } = renderHook(() => {
      renders += 1;
      return useDeviceClass();
    });
    act(() => resizeTo(1200));
    act(() => vi.advanceTimersByTime(RESIZE_DEBOUNCE_MS));
    expect(result.current).toBe('desktop');
    expect(renders).toBe(1);

    act(() => resizeTo(900));
    act(() => vi.advanceTimersByTime(RESIZE_DEBOUNCE_MS - 1));
    expect(result.current).toBe('desktop');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe('tablet');

    act(() => resizeTo(375));
    act(() => vi.advanceTimersByTime(RESIZE_DEBOUNCE_MS));
    expect(result.current).toBe('mobile');
  });
});
