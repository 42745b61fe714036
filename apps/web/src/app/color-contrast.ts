import { darken, luminance } from '@mantine/core';

/** WCAG 2's minimum for text (1.4.3, level AA). */
export const TEXT_CONTRAST = 4.5;

/** The WCAG 2 contrast ratio of two opaque colours (hex, rgb() or hsl()), from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [first, second] = [luminance(a), luminance(b)];
  return (Math.max(first, second) + 0.05) / (Math.min(first, second) + 0.05);
}

/** `colour` darkened in steps of 2 %, as little as makes it read at `ratio` on a light `background`. */
export function darkenToContrast(colour: string, background: string, ratio: number): string {
  for (let step = 0; step <= 50; step++) {
    const candidate = step === 0 ? colour : darken(colour, step / 50);
    if (contrastRatio(candidate, background) >= ratio) return candidate;
  }
  return '#000000';
}
