import { useEffect, useState } from 'react';

/** spec/02 §9 breakpoints: mobile under 768 px, tablet under 1024 px; resizes settle for 150 ms. */
export const MOBILE_MAX_WIDTH = 768;
export const TABLET_MAX_WIDTH = 1024;
export const RESIZE_DEBOUNCE_MS = 150;

export type DeviceClass = 'mobile' | 'tablet' | 'desktop';

export function deviceClassFor(width: number): DeviceClass {
  if (width < MOBILE_MAX_WIDTH) return 'mobile';
  if (width < TABLET_MAX_WIDTH) return 'tablet';
  return 'desktop';
}

const currentClass = (): DeviceClass =>
  deviceClassFor(typeof window === 'undefined' ? TABLET_MAX_WIDTH : window.innerWidth);

/**
 * The device class of the window's width, measured at once and again once a resize settled. Only a change
 * of class draws the caller again: the workspace is not redrawn for the first measurement or for a resize
 * within one class (issue 13 §1).
 */
export function useDeviceClass(): DeviceClass {
  const [device, setDevice] = useState(currentClass);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setDevice(currentClass()), RESIZE_DEBOUNCE_MS);
    };
    // The width may have changed between the first render and this effect. It is read in the next frame,
    // not here: reading the window's width lays out the page, and here that would lengthen the commit that
    // just drew the workspace instead of using the layout the frame does anyway (issue 13 §1).
    const frame = requestAnimationFrame(() => setDevice(currentClass()));
    window.addEventListener('resize', settle, { passive: true });
    window.addEventListener('orientationchange', settle, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      window.removeEventListener('resize', settle);
      window.removeEventListener('orientationchange', settle);
    };
  }, []);
  return device;
}
