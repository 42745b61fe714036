import { type MantineColorsTuple, toRgba } from '@mantine/core';

const hex = (value: number) => Math.round(value).toString(16).padStart(2, '0');

/** `colour` laid over `ground` at `weight` (0 to 1), as an opaque hex colour. */
function mix(colour: string, ground: string, weight: number): string {
  const [top, bottom] = [toRgba(colour), toRgba(ground)];
  return `#${(['r', 'g', 'b'] as const).map((c) => hex(top[c] * weight + bottom[c] * (1 - weight))).join('')}`;
}

/**
 * The dark scheme's banner: Mantine's dark "light" variant is an opaque dark red or brown (shade 9 darkened
 * by half), a heavy block above every page. The banner is a faint tint of the colour over the page instead,
 * edged in it, its text the colour's palest shade (well over 4.5:1 on the tint).
 */
export function darkBannerVars(shades: MantineColorsTuple, page: string) {
  return {
    '--alert-bg': mix(shades[8], page, 0.15),
    '--alert-color': shades[0],
    '--alert-bd': `1px solid ${shades[8]}`,
  };
}
