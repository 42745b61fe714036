import type { Plugin } from 'vite';

/** The `@mantine/core/styles/*.css` names (without `.css`) the sources in `sourceDir` need, in styles.css's order. */
export function usedMantineStyles(sourceDir?: string): string[];
/** Resolves `virtual:mantine-styles` to those stylesheets' imports. */
export function mantineStylesPlugin(): Plugin;
