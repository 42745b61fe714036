import {
  DEFAULT_THEME,
  Drawer,
  defaultCssVariablesResolver,
  MantineProvider,
  Modal,
  MultiSelect,
  mergeMantineTheme,
  NativeSelect,
  NumberInput,
  Radio,
  Select,
  Textarea,
  TextInput,
  type VariantColorsResolverInput,
} from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { contrastRatio } from './color-contrast';
import { cssVariablesResolver, theme } from './theme';

const merged = mergeMantineTheme(DEFAULT_THEME, theme);
const defaults = defaultCssVariablesResolver(merged);
const ours = cssVariablesResolver(merged);
/** Every CSS variable of the light scheme, as the page has them: Mantine's, then the app's over them. */
const lightVariables: Record<string, string> = {
  ...defaults.variables,
  ...defaults.light,
  ...ours.variables,
  ...ours.light,
};

/** A colour as the light scheme draws it: `var(--…)` followed to the value it ends at. */
function resolveLight(value: string): string {
  const reference = /^var\((--[\w-]+)\)$/.exec(value.trim());
  if (!reference?.[1]) return value;
  const next = lightVariables[reference[1]];
  if (next === undefined) throw new Error(`${reference[1]} is not a variable of the light scheme`);
  return resolveLight(next);
}

/** The text and background colours a component of this variant gets from the theme, in the light scheme. */
function lightVariant(color: string, variant: VariantColorsResolverInput['variant']) {
  const resolved = merged.variantColorResolver({ color, variant, theme: merged });
  return {
    text: resolveLight(resolved.color ?? ''),
    background: resolveLight(resolved.background ?? ''),
    hover: resolveLight(resolved.hover ?? ''),
  };
}

const colorNames = Object.keys(merged.colors);
const white = resolveLight('var(--mantine-color-body)');
const hoveredRow = merged.colors.gray[1];

describe('theme, light scheme: text at 4.5:1 (WCAG 1.4.3)', () => {
  it.each(colorNames)('%s light variant (badges, alerts): its text on its tint', (color) => {
    const { text, background } = lightVariant(color, 'light');
    expect(contrastRatio(text, background)).toBeGreaterThanOrEqual(4.5);
  });

  it.each(colorNames)(
    '%s.9 light variant: drawn as the plain light variant, not text on its own shade',
    (color) => {
      expect(lightVariant(`${color}.9`, 'light')).toEqual(lightVariant(color, 'light'));
    },
  );

  it.each(colorNames)('%s outline variant: on the page and on a hovered table row', (color) => {
    const { text } = lightVariant(color, 'outline');
    expect(contrastRatio(text, white)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(text, hoveredRow)).toBeGreaterThanOrEqual(4.5);
  });

  it.each(colorNames)("%s subtle variant (a danger button's text): on the page", (color) => {
    expect(contrastRatio(lightVariant(color, 'subtle').text, white)).toBeGreaterThanOrEqual(4.5);
  });

  // Under the mouse the tint darkens: the text must still read (a review measured Delete at 3.75:1).
  // `dark` is a grey scale whose tints are mid greys: the app draws no light or subtle dark button.
  it.each(colorNames.filter((color) => color !== 'dark'))(
    '%s light and subtle buttons: their text on the hovered tint',
    (color) => {
      for (const variant of ['light', 'subtle'] as const) {
        const { text, hover } = lightVariant(color, variant);
        expect(contrastRatio(text, hover), `${variant} ${text} on ${hover}`).toBeGreaterThanOrEqual(4.5);
      }
    },
  );

  // `dark` is a grey scale whose shade 1 is a mid grey, not a tint anything is written on.
  it.each(colorNames.filter((color) => color !== 'dark'))(
    'links on the tint of a %s light alert',
    (color) => {
      const anchor = resolveLight('var(--mantine-color-anchor)');
      expect(contrastRatio(anchor, lightVariant(color, 'light').background)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(anchor, white)).toBeGreaterThanOrEqual(4.5);
    },
  );

  it.each(colorNames)('%s filled variant (a filled badge or button): white text on it', (color) => {
    const { text, background } = lightVariant(color, 'filled');
    expect(text).toBe('#fff');
    expect(contrastRatio(text, background)).toBeGreaterThanOrEqual(4.5);
  });

  it.each(colorNames)(
    '%s text (c="%s": an error line, a warning): on the page and on a hovered row',
    (color) => {
      const text = resolveLight(`var(--mantine-color-${color}-text)`);
      expect(contrastRatio(text, white)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(text, hoveredRow)).toBeGreaterThanOrEqual(4.5);
    },
  );

  it('fixes what the audit measured: green and teal badges, the blue tier badge, a link on a blue alert', () => {
    const green = lightVariant('green', 'light');
    const teal = lightVariant('teal', 'light');
    const blueOutline = lightVariant('blue', 'outline');
    // Mantine's own: #2b8a3e on #d3f9d8 (3.8:1), #087f5b on #c3fae8 (4.3:1), #1c7ed6 (4.0:1 on a striped row).
    expect(green.background).toBe('#d3f9d8');
    expect(teal.background).toBe('#c3fae8');
    expect(contrastRatio(green.text, green.background)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(teal.text, teal.background)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(blueOutline.text, merged.colors.gray[0])).toBeGreaterThanOrEqual(4.5);
    expect(
      contrastRatio(resolveLight('var(--mantine-color-anchor)'), lightVariant('blue', 'light').background),
    ).toBeGreaterThanOrEqual(4.5);
  });

  it('writes a subtle button in its colour in the dark scheme too, not near-white', () => {
    const subtleRed = merged.variantColorResolver({ color: 'red', variant: 'subtle', theme: merged });
    expect(subtleRed.color).toBe('var(--haversack-red-subtle)');
    expect(ours.dark['--haversack-red-subtle']).toBe('var(--mantine-color-red-text)');
    expect(defaults.dark['--mantine-color-red-text']).toBe('var(--mantine-color-red-4)');
    expect(contrastRatio(merged.colors.red[4], merged.colors.dark[7])).toBeGreaterThanOrEqual(4.5);
  });

  it('leaves the dark scheme as it was', () => {
    expect(Object.keys(ours.dark).filter((name) => /-(light-color|outline)$/.test(name))).toEqual([
      '--mantine-color-violet-light-color',
    ]);
  });
});

describe('theme, reduced motion', () => {
  it("lets Mantine's transitions follow the system's reduce-motion setting", () => {
    expect(merged.respectReducedMotion).toBe(true);
    render(<MantineProvider theme={theme}>{null}</MantineProvider>);
    expect(document.documentElement).toHaveAttribute('data-respect-reduced-motion', 'true');
  });
});

describe('theme, required fields', () => {
  it('marks no kind of field with an asterisk, so that no form marks some required fields and not others', () => {
    render(
      <MantineProvider env="test" theme={theme}>
        <TextInput label="Name" required />
        <Textarea label="Reason" required />
        <NumberInput label="Quantity" required />
        <Select label="Expires" data={['30 days']} required />
        <Radio.Group label="Scope" required>
          <Radio value="read" label="Read only" />
        </Radio.Group>
      </MantineProvider>,
    );
    for (const label of ['Name', 'Reason', 'Quantity', 'Expires', 'Scope']) {
      expect(screen.getByText(label).closest('label, legend, div')?.textContent, label).not.toContain('*');
    }
    expect(screen.getByRole('textbox', { name: 'Name' })).toBeRequired();
  });
});

describe('theme, dialogs', () => {
  it('gives dialogs and drawers a title bar that is no banner landmark (axe landmark-no-duplicate-banner)', async () => {
    render(
      <MantineProvider env="test" theme={theme}>
        <header>The page</header>
        <Modal opened onClose={() => undefined} title="Destroy item">
          Sure?
        </Modal>
        <Drawer opened onClose={() => undefined} title="Filters">
          Rarity
        </Drawer>
      </MantineProvider>,
    );
    const dialogs = await screen.findAllByRole('dialog');
    expect(dialogs).toHaveLength(2);
    for (const dialog of dialogs) expect(dialog.querySelector('header')).toBeNull();
    expect(document.querySelector('.mantine-Modal-header')?.tagName).toBe('DIV');
    expect(document.querySelector('.mantine-Drawer-header')?.tagName).toBe('DIV');
    expect(document.querySelectorAll('header')).toHaveLength(1);
  });
});

describe('theme, decorative icons', () => {
  it('hides the chevrons of Select, MultiSelect and NativeSelect from screen readers, which read them as images', () => {
    const { container } = render(
      <MantineProvider env="test" theme={theme}>
        <Select label="Rarity" data={['Rare']} />
        <MultiSelect label="Tags" data={['Weapon']} />
        <NativeSelect label="Sort" data={['Name']} />
      </MantineProvider>,
    );
    const chevrons = container.querySelectorAll('svg');
    expect(chevrons).toHaveLength(3);
    for (const chevron of chevrons) expect(chevron).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByRole('combobox', { name: 'Rarity' })).toBeInTheDocument();
  });
});
