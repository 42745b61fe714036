import { useDebouncedValue, useViewportSize } from '@mantine/hooks';

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

export function useDeviceClass(): DeviceClass {
  const { width } = useViewportSize();
  const [settled] = useDebouncedValue(width, RESIZE_DEBOUNCE_MS);
  // Before the first measurement (width 0) assume a desktop rather than flash the phone layout.
  const measured = settled || width || (typeof window === 'undefined' ? TABLET_MAX_WIDTH : window.innerWidth);
  return deviceClassFor(measured);
}
