import {
  type AnchorProps,
  type CSSVariablesResolver,
  createTheme,
  defaultVariantColorsResolver,
  getPrimaryShade,
  type MantineColorsTuple,
  type MantineTheme,
  type PaginationProps,
  type PasswordInputProps,
  parseThemeColor,
  type TextInputProps,
  type VariantColorsResolver,
} from '@mantine/core';
import { contrastRatio, darkenToContrast, TEXT_CONTRAST } from './color-contrast';

// The components are configured by name with plain objects, not `Select.extend(...)`: importing a
// component here would put it (Select pulls Combobox, ScrollArea, Popover and floating-ui) in the first
// load of every page, /login included (issue 13 §1).

/**
 * A "light" variant given a shade (`color="red.9"`, written to mean "the darker red") is painted by Mantine
 * with that shade as its background, under the colour's light-variant text: red-9 on red-9 in the light
 * scheme, 1:1. It is drawn as the colour's own light variant instead, whose tint and text each scheme sets.
 */
export const variantColorResolver: VariantColorsResolver = (input) => {
  if (input.variant === 'light') {
    const parsed = parseThemeColor({ color: input.color, theme: input.theme });
    if (parsed.isThemeColor && parsed.shade !== undefined)
      return defaultVariantColorsResolver({ ...input, color: parsed.color });
  }
  if (input.variant === 'subtle') {
    // A subtle button has no tint behind its text, so the light variant's text (shade 0 in the dark scheme,
    // near-white) took the colour from a red "Cancel subscription": it is written in the colour's text shade,
    // readable on the page in both schemes (see readableTextColors).
    const parsed = parseThemeColor({ color: input.color, theme: input.theme });
    if (parsed.isThemeColor && parsed.color !== input.theme.primaryColor)
      return {
        ...defaultVariantColorsResolver(input),
        color: `var(--haversack-${parsed.color}-subtle)`,
      };
  }
  return defaultVariantColorsResolver(input);
};

/**
 * Colours are chosen for WCAG AA contrast in both schemes: violet-7 under white button text (5.5:1),
 * and darker dimmed and error text than Mantine's defaults, which fall below 4.5:1 on white (gray-6) and
 * on the dark body (dark-2, red-8).
 */
export const theme = createTheme({
  primaryColor: 'violet',
  primaryShade: { light: 7, dark: 7 },
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  variantColorResolver,
  // Dialogs, menus, toasts and collapses appear without fading or scaling for those who ask their system
  // to reduce motion (global.css stops the loops Mantine leaves running).
  respectReducedMotion: true,
  components: {
    // Links are told apart from text by more than colour (WCAG 1.4.1, axe link-in-text-block).
    Anchor: { defaultProps: { underline: 'always' } satisfies Partial<AnchorProps> },
    // Every field of our forms is required, so an asterisk carries no information; the inputs keep
    // `required` for assistive technology, and labels stay exactly "Email", "Password", ...
    TextInput: { defaultProps: { withAsterisk: false } satisfies Partial<TextInputProps> },
    // The same for every other kind of field, so that no form marks some required fields and not others.
    Textarea: { defaultProps: { withAsterisk: false } },
    NumberInput: { defaultProps: { withAsterisk: false } },
    RadioGroup: { defaultProps: { withAsterisk: false } },
    // The show/hide switch is in the Tab order (Mantine leaves it out), so that keyboard users can check
    // what they typed too; it says whether the password is shown (aria-pressed).
    PasswordInput: {
      defaultProps: {
        withAsterisk: false,
        visibilityToggleFocusable: true,
      } satisfies Partial<PasswordInputProps>,
    },
    // Long choices ("Backpack (Nim Quickfingers) · 21% full · 3/20 slots") end in an ellipsis on a phone
    // instead of being cut mid-word. Picking the chosen option again keeps it: Mantine's default cleared
    // it, which emptied "Add to" and greyed every Add button; a field that may be empty is `clearable`.
    Select: {
      defaultProps: { withAsterisk: false, allowDeselect: false },
      styles: { input: { textOverflow: 'ellipsis' } },
    },
    // The chevron of every Select, MultiSelect and NativeSelect is decoration: screen readers announced
    // it as an unnamed image beside each field (screen review).
    ComboboxChevron: { defaultProps: { 'aria-hidden': true } },
    // A long party name in a trail ("Shops / The Fellowship of …") wraps instead of widening the page.
    Breadcrumbs: {
      styles: {
        root: { flexWrap: 'wrap', rowGap: 4 },
        breadcrumb: { whiteSpace: 'normal', overflowWrap: 'anywhere', minWidth: 0, lineHeight: 1.4 },
      },
    },
    // A dialog's or drawer's title bar is a <header>, which axe counts as one more banner landmark per open
    // dialog (landmark-no-duplicate-banner); the page's own header is the only banner.
    ModalHeader: { defaultProps: { component: 'div' } },
    DrawerHeader: { defaultProps: { component: 'div' } },
    // Every pager's arrows and numbers get names ("next page", "Page 3"): axe button-name.
    Pagination: {
      defaultProps: {
        getControlProps: (control) => ({ 'aria-label': `${control} page` }),
        getItemProps: (page) => ({ 'aria-label': `Page ${page}` }),
      } satisfies Partial<PaginationProps>,
    },
  },
});

/**
 * The first shade of a colour, from `from` on, that reads at 4.5:1 on `background`; failing that, its
 * darkest shade (9) darkened just enough.
 */
function readableShade(name: string, shades: MantineColorsTuple, from: number, background: string): string {
  const shade = shades.findIndex(
    (colour, index) => index >= from && contrastRatio(colour, background) >= TEXT_CONTRAST,
  );
  if (shade !== -1) return `var(--mantine-color-${name}-${shade})`;
  return darkenToContrast(shades[9], background, TEXT_CONTRAST);
}

/**
 * The light scheme's text of every colour's "light" variants (badges, alerts, subtle buttons) and "outline"
 * variants, at 4.5:1 (WCAG 1.4.3). Mantine writes shade 9 on the tint, shade 1, which falls short for green
 * (3.8:1), teal (4.3:1), lime, yellow and orange, and outlines in the primary shade, 7: blue-7 is 4.2:1 on
 * white and 3.8:1 on a hovered table row (gray-1), the darkest ground an outline badge sits on.
 */
function readableVariantColors(theme: MantineTheme): Record<string, string> {
  const outlineFrom = getPrimaryShade(theme, 'light');
  const hoveredRow = theme.colors.gray[1];
  const variables: Record<string, string> = {};
  for (const [name, shades] of Object.entries(theme.colors)) {
    // On the hovered tint (shade 2, Mantine's light-hover), which is darker than the resting one (shade 1).
    variables[`--mantine-color-${name}-light-color`] = readableShade(name, shades, 9, shades[2]);
    variables[`--haversack-${name}-subtle`] = readableShade(name, shades, 6, shades[2]);
    variables[`--mantine-color-${name}-outline`] = readableShade(name, shades, outlineFrom, hoveredRow);
  }
  return variables;
}

/**
 * Filled buttons and badges write white on the colour's filled shade, the primary shade (7): red-7 is
 * 3.8:1 under white, orange-7 3.0:1. Each colour's filled shade is the first from there that reads at
 * 4.5:1 under white, its hover one darker where there is one. Badges that choose a pale shade
 * (`color="orange.3"`) with `autoContrast` are not drawn from these variables.
 */
function readableFilledColors(theme: MantineTheme, scheme: 'light' | 'dark'): Record<string, string> {
  const from = getPrimaryShade(theme, scheme);
  const variables: Record<string, string> = {};
  for (const [name, shades] of Object.entries(theme.colors)) {
    const filled = readableShade(name, shades, from, '#ffffff');
    variables[`--mantine-color-${name}-filled`] = filled;
    const index = /-(\d)\)$/.exec(filled)?.[1];
    const hover =
      index !== undefined && Number(index) < 9 ? `var(--mantine-color-${name}-${Number(index) + 1})` : filled;
    variables[`--mantine-color-${name}-filled-hover`] = hover;
  }
  return variables;
}

/**
 * Text in a colour (`c="red"`, an error line, a warning) is the colour's filled shade in Mantine's light
 * scheme, 3.8:1 for red and 3.0:1 for orange on white: here the first shade from 6 that reads at 4.5:1 on
 * the darkest ground such text sits on (a hovered row, gray-1). The dark scheme's shade 4 already does.
 */
function readableTextColors(theme: MantineTheme): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, shades] of Object.entries(theme.colors))
    variables[`--mantine-color-${name}-text`] = readableShade(name, shades, 6, theme.colors.gray[1]);
  return variables;
}

/** The dark scheme's subtle buttons keep the colour's text shade: it reads on the dark hover tint too. */
function subtleTextColors(theme: MantineTheme): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const name of Object.keys(theme.colors))
    variables[`--haversack-${name}-subtle`] = `var(--mantine-color-${name}-text)`;
  return variables;
}

/**
 * The variables above over Mantine's own. The app does not run it: what it gives is written ahead into
 * theme-variables.css (theme-variables.test.tsx keeps the file true; `-u` writes it again after a change).
 */
export const cssVariablesResolver: CSSVariablesResolver = (theme) => ({
  variables: {},
  light: {
    ...readableVariantColors(theme),
    ...readableFilledColors(theme, 'light'),
    ...readableTextColors(theme),
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-6)',
    // Links sit on the tint of light alerts too, where violet-7 falls to 4.2:1 (violet's) or 4.5:1 (blue's).
    '--mantine-color-anchor': 'var(--mantine-color-violet-8)',
    // Yellow's light-variant text: a brown rather than darkened orange (5.3:1 on its tint).
    '--mantine-color-yellow-light-color': '#8a5a00',
  },
  dark: {
    ...readableFilledColors(theme, 'dark'),
    ...subtleTextColors(theme),
    '--mantine-color-dimmed': '#a3a3a3',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
    '--mantine-color-placeholder': 'var(--mantine-color-dark-2)',
    '--mantine-color-violet-light-color': 'var(--mantine-color-violet-3)',
    // violet-4 links fall just under 4.5:1 on cards (dark-6); violet-3 passes on cards and the body alike.
    '--mantine-color-anchor': 'var(--mantine-color-violet-3)',
  },
});
