import { useMediaQuery } from '@mantine/hooks';

/**
 * Whether the window is a phone's (spec/02 §9: under 768 px). Known at the first render (no server
 * rendering here): measured in an effect, a phone would draw the whole screen a second time right after
 * its first (issue 13 §1).
 */
export function usePhone(): boolean {
  return useMediaQuery('(max-width: 47.99em)', undefined, { getInitialValueInEffect: false });
}
