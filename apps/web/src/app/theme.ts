import {
  type AnchorProps,
  type CSSVariablesResolver,
  createTheme,
  type PaginationProps,
  type PasswordInputProps,
  type TextInputProps,
} from '@mantine/core';

// The components are configured by name with plain objects, not `Select.extend(...)`: importing a
// component here would put it (Select pulls Combobox, ScrollArea, Popover and floating-ui) in the first
// load of every page, /login included (issue 13 §1).

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
  components: {
    // Links are told apart from text by more than colour (WCAG 1.4.1, axe link-in-text-block).
    Anchor: { defaultProps: { underline: 'always' } satisfies Partial<AnchorProps> },
    // Every field of our forms is required, so an asterisk carries no information; the inputs keep
    // `required` for assistive technology, and labels stay exactly "Email", "Password", ...
    TextInput: { defaultProps: { withAsterisk: false } satisfies Partial<TextInputProps> },
    // The show/hide switch is in the Tab order (Mantine leaves it out), so that keyboard users can check
    // what they typed too; it says whether the password is shown (aria-pressed).
    PasswordInput: {
      defaultProps: {
        withAsterisk: false,
        visibilityToggleFocusable: true,
      } satisfies Partial<PasswordInputProps>,
    },
    // Long choices ("Backpack (Nim Quickfingers) · 21% full · 3/20 slots") end in an ellipsis on a phone
    // instead of being cut mid-word.
    Select: { styles: { input: { textOverflow: 'ellipsis' } } },
    // A long party name in a trail ("Shops / The Fellowship of …") wraps instead of widening the page.
    Breadcrumbs: {
      styles: {
        root: { flexWrap: 'wrap', rowGap: 4 },
        breadcrumb: { whiteSpace: 'normal', overflowWrap: 'anywhere', minWidth: 0, lineHeight: 1.4 },
      },
    },
    // Every pager's arrows and numbers get names ("next page", "Page 3"): axe button-name.
    Pagination: {
      defaultProps: {
        getControlProps: (control) => ({ 'aria-label': `${control} page` }),
        getItemProps: (page) => ({ 'aria-label': `Page ${page}` }),
      } satisfies Partial<PaginationProps>,
    },
  },
});

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-6)',
    // Text of the "light" variants (alerts, badges) sits on a pale tint: use the darkest shades.
    '--mantine-color-red-light-color': 'var(--mantine-color-red-9)',
    // Outline buttons ("Delete container") write in this red: red-6 on white is about 3.6:1.
    '--mantine-color-red-outline': 'var(--mantine-color-red-9)',
    '--mantine-color-teal-light-color': 'var(--mantine-color-teal-9)',
    '--mantine-color-violet-light-color': 'var(--mantine-color-violet-9)',
    '--mantine-color-blue-light-color': 'var(--mantine-color-blue-9)',
    '--mantine-color-yellow-light-color': '#8a5a00',
  },
  dark: {
    '--mantine-color-dimmed': '#a3a3a3',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
    '--mantine-color-placeholder': 'var(--mantine-color-dark-2)',
    '--mantine-color-violet-light-color': 'var(--mantine-color-violet-3)',
    // violet-4 links fall just under 4.5:1 on cards (dark-6); violet-3 passes on cards and the body alike.
    '--mantine-color-anchor': 'var(--mantine-color-violet-3)',
  },
});
