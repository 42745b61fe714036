import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  ActionIcon,
  Anchor,
  AppShell,
  Badge,
  Breadcrumbs,
  Button,
  Checkbox,
  MantineProvider,
  NavLink,
  Progress,
  Radio,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { describe, expect, it, onTestFinished } from 'vitest';
import { useTouchScreen } from '../test/global-styles';
import { restoreViewportAfterEach, setViewport } from '../test/viewport';
import { contrastRatio } from './color-contrast';
import { cssVariablesResolver, theme } from './theme';

const require = createRequire(import.meta.url);
// Read from the file: vitest hands CSS modules to tests empty, `?raw` included.
const globalCss = readFileSync(require.resolve('./global.css'), 'utf8');
const mantineCss = (component: string) =>
  readFileSync(require.resolve(`@mantine/core/styles/${component}.css`), 'utf8');

/**
 * Mantine's variables and the styles of these components, then the app's, as main.tsx orders them; gone
 * after the test.
 */
function useStyles(...components: string[]) {
  const style = document.createElement('style');
  style.textContent = [...['default-css-variables', ...components].map(mantineCss), globalCss].join('\n');
  document.head.append(style);
  onTestFinished(() => style.remove());
}

/** happy-dom's own window API: its media queries answer to these settings. */
interface HappyDomWindow {
  happyDOM: { settings: { device: { prefersReducedMotion: string } } };
}
const isHappyDom = (candidate: object): candidate is HappyDomWindow => 'happyDOM' in candidate;

function prefersReducedMotion(value: 'reduce' | 'no-preference') {
  if (!isHappyDom(window)) throw new Error('These tests need happy-dom’s settings.');
  const { device } = window.happyDOM.settings;
  const initial = device.prefersReducedMotion;
  device.prefersReducedMotion = value;
  onTestFinished(() => {
    device.prefersReducedMotion = initial;
  });
}

const hasRing = (element: Element) => {
  const style = getComputedStyle(element);
  return style.outlineStyle === 'solid' && style.outlineWidth === '2px';
};

// happy-dom keeps an element's computed style until the DOM changes, not when the focus moves or a media
// query's answer changes: each element is looked at once, in the state the test means, and found by its
// label rather than its role (finding by role computes every style to tell what is hidden).
describe('global.css: focused fields', () => {
  it('ring a focused text input, textarea and select like the buttons, and only a focused one', () => {
    useStyles('Input');
    render(
      <MantineProvider env="test" theme={theme}>
        <TextInput label="Name" />
        <Textarea label="Notes" />
        <Select label="Kind" data={['Weapon']} />
        <TextInput label="Title" />
      </MantineProvider>,
    );
    const fields = ['Name', 'Notes', 'Kind'].map((label) =>
      screen.getByLabelText(label, { selector: 'input, textarea' }),
    );
    for (const field of fields) {
      field.focus();
      expect(hasRing(field)).toBe(true);
    }
    expect(hasRing(screen.getByLabelText('Title'))).toBe(false);
  });

  it('keeps the red border of a field in error while it is focused', () => {
    useStyles('Input');
    render(
      <MantineProvider env="test" theme={theme}>
        <TextInput label="Name" error="Enter a name" />
      </MantineProvider>,
    );
    const field = screen.getByLabelText('Name');
    field.focus();
    expect(hasRing(field)).toBe(true);
    const error = getComputedStyle(document.documentElement).getPropertyValue('--mantine-color-error');
    expect(getComputedStyle(field).getPropertyValue('--input-bd')).toBe(error);
  });
});

describe('global.css: the sidebar’s links', () => {
  it('ring a focused link inside its edges, where the scrolling sidebar would cut a ring outside them', () => {
    useStyles('AppShell', 'NavLink', 'ScrollArea', 'Button');
    render(
      <MantineProvider env="test" theme={theme}>
        <AppShell navbar={{ width: 260, breakpoint: 'sm' }}>
          <AppShell.Navbar>
            <AppShell.Section grow component={ScrollArea}>
              <NavLink href="/dashboard" label="Dashboard" />
            </AppShell.Section>
          </AppShell.Navbar>
          <AppShell.Main>
            <Button>Save</Button>
          </AppShell.Main>
        </AppShell>
      </MantineProvider>,
    );
    const link = screen.getByText('Dashboard').closest('a');
    const button = screen.getByText('Save').closest('button');
    if (!link || !button) throw new Error('no link or button');
    // happy-dom does not match :focus-visible: the rules that draw a focused control's ring inside its
    // edges (outline-offset below 0) are looked up, and the elements they apply to once focused.
    const insetRings = [...document.styleSheets]
      .flatMap((sheet) => [...sheet.cssRules])
      .filter(
        (rule): rule is CSSStyleRule =>
          rule instanceof CSSStyleRule &&
          rule.selectorText.includes(':focus-visible') &&
          rule.style.getPropertyValue('outline-offset').trim().startsWith('-'),
      );
    const ringedInside = (element: Element) =>
      insetRings.some((rule) => element.matches(rule.selectorText.replaceAll(':focus-visible', '')));
    expect(ringedInside(link)).toBe(true);
    // Other controls keep their ring outside.
    expect(ringedInside(button)).toBe(false);
  });
});

describe('global.css: reduced motion', () => {
  const renderStripes = () => {
    const { container } = render(
      <MantineProvider env="test" theme={theme}>
        <Progress value={40} animated aria-label="Import" />
      </MantineProvider>,
    );
    const stripes = container.querySelector('.mantine-Progress-section[data-animated]');
    if (!stripes) throw new Error('No animated progress section');
    return stripes;
  };

  it("stops a running operation's stripes for those who ask for less motion, and only for them", () => {
    useStyles('Progress');
    prefersReducedMotion('no-preference');
    expect(getComputedStyle(renderStripes()).animation).toMatch(/infinite/);
    cleanup();
    prefersReducedMotion('reduce');
    // happy-dom computes the shorthand only.
    expect(getComputedStyle(renderStripes()).animation).toBe('none');
  });
});

describe('global.css: the Undo a phone taps', () => {
  restoreViewportAfterEach();
  it('is 44 px tall on a phone, and as Mantine drew it on wider screens', () => {
    useStyles('Button');
    const renderUndo = () =>
      render(
        <MantineProvider env="test" theme={theme}>
          <Button size="compact-xs" className="haversack-touch-target haversack-finger-target">
            Undo
          </Button>
        </MantineProvider>,
      );
    setViewport(375, 812);
    renderUndo();
    expect(getComputedStyle(screen.getByRole('button', { name: 'Undo' })).minHeight).toBe('44px');
    cleanup();
    setViewport(1280, 800);
    renderUndo();
    expect(getComputedStyle(screen.getByRole('button', { name: 'Undo' })).minHeight).not.toBe('44px');
  });
});

describe('global.css: toasts over a dialog on a phone', () => {
  it('go to the bottom of the screen while a dialog is open, clear of its title', () => {
    useStyles();
    const toasts = document.createElement('div');
    toasts.className = 'haversack-toasts';
    toasts.dataset.position = 'top-right';
    document.body.append(toasts);
    onTestFinished(() => toasts.remove());
    expect(getComputedStyle(toasts).top).not.toBe('auto');
    const dialog = document.createElement('section');
    dialog.className = 'mantine-Modal-content';
    dialog.setAttribute('aria-modal', 'true');
    document.body.append(dialog);
    onTestFinished(() => dialog.remove());
    expect(getComputedStyle(toasts).top).toBe('auto');
    expect(getComputedStyle(toasts).bottom).not.toBe('');
  });
});

describe('global.css: touch targets on a phone', () => {
  restoreViewportAfterEach();
  const renderLinks = () =>
    render(
      <MantineProvider env="test" theme={theme}>
        <Anchor href="/characters" size="sm" className="haversack-touch-target">
          View all
        </Anchor>
        <Breadcrumbs>
          <Anchor href="/shops">Shops</Anchor>
          <span>The Gilded Flagon</span>
        </Breadcrumbs>
      </MantineProvider>,
    );

  it('makes small links and breadcrumbs at least 24 px tall on a phone, and leaves wider screens alone', () => {
    useStyles('Anchor', 'Breadcrumbs');
    setViewport(375, 812);
    renderLinks();
    for (const name of ['View all', 'Shops']) {
      expect(getComputedStyle(screen.getByRole('link', { name })).minHeight, name).toBe('24px');
    }
    expect(getComputedStyle(screen.getByText('The Gilded Flagon')).minHeight).toBe('24px');
    cleanup();
    setViewport(1280, 800);
    renderLinks();
    expect(getComputedStyle(screen.getByRole('link', { name: 'View all' })).minHeight).not.toBe('24px');
    expect(getComputedStyle(screen.getByRole('link', { name: 'Shops' })).minHeight).not.toBe('24px');
  });
});

describe('global.css: long words', () => {
  it('lets text, links and titles break a word that cannot fit, as players write names without spaces', () => {
    useStyles('Text', 'Anchor', 'Title');
    render(
      <MantineProvider env="test" theme={theme}>
        <Text>{'Very'.repeat(40)}</Text>
        <Anchor href="/items">{'Long'.repeat(40)}</Anchor>
        <Title order={2}>{'Name'.repeat(40)}</Title>
      </MantineProvider>,
    );
    for (const word of ['Very', 'Long', 'Name']) {
      expect(getComputedStyle(screen.getByText(word.repeat(40))).overflowWrap, word).toBe('anywhere');
    }
  });
});

describe('global.css: the edges of form controls', () => {
  it('draw a text field, an unticked box and radio in a border of 3:1, and leave a field in error red', () => {
    useStyles('Input', 'Checkbox', 'Radio');
    render(
      <MantineProvider env="test" theme={theme} forceColorScheme="light">
        <TextInput label="Name" />
        <TextInput label="Broken" error="Required" />
        <Checkbox label="Equipped" />
        <Radio label="Dark" />
      </MantineProvider>,
    );
    const wrapper = (label: string) =>
      screen.getByLabelText(label, { selector: 'input' }).closest('.mantine-Input-wrapper') as HTMLElement;
    // Gray-6, 3.3:1 on white (Mantine's gray-4 is 1.5:1).
    const gray6 = '#868e96';
    expect(contrastRatio(gray6, '#ffffff')).toBeGreaterThanOrEqual(3);
    expect(getComputedStyle(wrapper('Name')).getPropertyValue('--input-bd').trim()).toBe(gray6);
    expect(getComputedStyle(wrapper('Broken')).getPropertyValue('--input-bd').trim()).not.toBe(gray6);
    for (const label of ['Equipped', 'Dark']) {
      expect(getComputedStyle(screen.getByLabelText(label)).borderColor).toBe(gray6);
    }
    expect(globalCss).toMatch(/--haversack-control-border: var\(--mantine-color-gray-6\)/);
  });
});

describe('global.css: buttons in a row and in a column', () => {
  it('keep a button in a row at least as wide as its longest word, and let one in a column break it', () => {
    useStyles('Button', 'Stack');
    render(
      <MantineProvider env="test" theme={theme}>
        <Button>Add</Button>
        <Stack>
          <Button>New Character</Button>
        </Stack>
        <Button fullWidth>Join a Party</Button>
      </MantineProvider>,
    );
    expect(getComputedStyle(screen.getByRole('button', { name: 'Add' })).minWidth).toBe('min-content');
    expect(getComputedStyle(screen.getByRole('button', { name: 'New Character' })).minWidth).toBe('0');
    expect(getComputedStyle(screen.getByRole('button', { name: 'Join a Party' })).minWidth).toBe('0');
  });
});

describe('global.css: a label that wraps', () => {
  it('keeps room above and below its lines, where the cap-height trim pressed two lines against the edges', () => {
    useStyles('Button');
    render(
      <MantineProvider env="test" theme={theme}>
        <Button maw="100%">Claim for Lyra Moonwhisper, Seeker of the Lost Archive</Button>
      </MantineProvider>,
    );
    const label = screen
      .getByRole('button', { name: 'Claim for Lyra Moonwhisper, Seeker of the Lost Archive' })
      .querySelector('.mantine-Button-label');
    if (!label) throw new Error('the button has no label');
    // Mantine trims the label's box to the capitals and the baseline (text-box-trim, Chromium 133+): two
    // lines had their leading and the descenders' room cut and touched the button's top and bottom
    // (review 2026-12, the loot's Claim button on a phone). The padding holds that room: at least the
    // half-leading and a descender, and one line (capitals, about 0.72 em, and padding) still fits 36 px
    // at 14 px. happy-dom resolves no em lengths: the rule's own value is read.
    expect(getComputedStyle(label).getPropertyValue('text-box-trim')).toBe('trim-both');
    const rule = /html \.mantine-Button-label \{[^}]*?padding-block: ([\d.]+)em;/.exec(globalCss);
    const paddingEm = Number(rule?.[1]);
    expect(paddingEm).toBeGreaterThanOrEqual(0.5);
    expect((0.72 + 2 * paddingEm) * 14).toBeLessThanOrEqual(34);
  });
});

describe('global.css: load bars', () => {
  it("draw a bar's fill at 3:1 on its track, and the track's edge at 3:1 on the page, in both schemes", () => {
    useStyles('Progress');
    /** A colour as the page resolves it (a variable of the theme's). */
    const resolve = (value: string) => {
      const probe = document.createElement('div');
      probe.style.color = value;
      document.body.append(probe);
      const resolved = getComputedStyle(probe).color;
      probe.remove();
      return resolved;
    };
    for (const scheme of ['light', 'dark'] as const) {
      const { container } = render(
        <MantineProvider
          env="test"
          theme={theme}
          cssVariablesResolver={cssVariablesResolver}
          forceColorScheme={scheme}
        >
          <Progress value={64} aria-label="Weight used" />
        </MantineProvider>,
      );
      const track = getComputedStyle(container.querySelector('.mantine-Progress-root') as Element);
      const page = resolve('var(--mantine-color-body)');
      expect(track.outlineStyle, scheme).toBe('solid');
      expect(contrastRatio(track.outlineColor, page), `${scheme}: the track's edge`).toBeGreaterThanOrEqual(
        3,
      );
      // The colours the app's bars are drawn in: capacity, load, usage, loot received, the transfer queue.
      for (const name of ['teal', 'yellow', 'orange', 'red', 'blue', 'violet']) {
        const fill = resolve(`var(--mantine-color-${name}-filled)`);
        expect(contrastRatio(fill, track.backgroundColor), `${scheme}: ${name}`).toBeGreaterThanOrEqual(3);
      }
      cleanup();
    }
  });
});

describe('global.css: toasts over an open dialog', () => {
  /** A toast as app-toasts.tsx draws it, and a dialog open beside it or not. */
  function renderToast(dialogOpen: boolean) {
    render(
      <div>
        {dialogOpen ? (
          <section role="dialog" aria-modal="true" aria-label="Distribute Bandit Camp">
            <button type="button">Confirm distribution</button>
          </section>
        ) : null}
        <div className="haversack-toasts" data-position="bottom-right">
          <div className="mantine-Notification-root" data-testid="toast">
            live_p1 claimed 1 × Potion of Healing
          </div>
        </div>
      </div>,
    );
    return screen.getByTestId('toast');
  }

  it('let clicks through to the dialog while one is open, and do not hold still under the pointer', () => {
    // Live review: a teammate's notice sat on "Confirm distribution", paused by the pointer, for a minute.
    useStyles();
    expect(getComputedStyle(renderToast(true)).pointerEvents).toBe('none');
  });

  it('take the pointer as before with no dialog open (hover holds them, × closes them)', () => {
    useStyles();
    expect(getComputedStyle(renderToast(false)).pointerEvents).not.toBe('none');
  });
});

describe('global.css: a dialog on a screen the on-screen keyboard has made short', () => {
  restoreViewportAfterEach();
  const renderDialogForm = () => {
    render(
      <div className="mantine-Modal-content">
        <div className="mantine-Modal-body">
          <form>
            <input aria-label="Container Name" />
            <div className="mantine-Group-root" data-testid="actions">
              <button type="button">Cancel</button>
              <button type="submit">Create Container</button>
            </div>
          </form>
        </div>
      </div>,
    );
    return screen.getByTestId('actions');
  };

  it('keeps the action row stuck to the bottom of a landscape phone, where it covers no field', () => {
    useStyles();
    setViewport(667, 375);
    expect(getComputedStyle(renderDialogForm()).position).toBe('sticky');
  });

  it('lets the action row scroll with the form once the keyboard leaves a strip, over the field typed in', () => {
    // Review (touch, landscape): at 667x160 "Create Container" sat over the Container Name being typed.
    useStyles();
    setViewport(667, 160);
    expect(getComputedStyle(renderDialogForm()).position).toBe('static');
  });

  it('sticks an action row with no submit button too, when it says it is the dialog’s actions', () => {
    // Distribute has Preview and Confirm distribution, neither a form's submit.
    useStyles();
    setViewport(667, 375);
    render(
      <div className="mantine-Modal-body">
        <div>
          <p>Share among</p>
          <div className="mantine-Group-root haversack-dialog-actions" data-testid="actions">
            <button type="button">Preview</button>
          </div>
        </div>
      </div>,
    );
    expect(getComputedStyle(screen.getByTestId('actions')).position).toBe('sticky');
  });
});

describe('global.css: row buttons on a touch screen', () => {
  restoreViewportAfterEach();
  const renderRowButton = () =>
    render(
      <MantineProvider env="test" theme={theme}>
        <ActionIcon
          variant="subtle"
          size="md"
          className="haversack-row-action"
          aria-label="Move Abacus to..."
        >
          ⇅
        </ActionIcon>
      </MantineProvider>,
    );

  it('are a finger wide on a touch tablet, whatever its width', () => {
    // Review (touch): 34 px on a 768 px tablet, 28 px on a 1024 px one; 44 px on a phone.
    useStyles('ActionIcon');
    useTouchScreen();
    setViewport(1024, 768);
    renderRowButton();
    const button = screen.getByRole('button', { name: 'Move Abacus to...' });
    expect(getComputedStyle(button).minHeight).toBe('44px');
    expect(getComputedStyle(button).minWidth).toBe('44px');
  });

  it('keep their size under a mouse on a wide screen', () => {
    useStyles('ActionIcon');
    setViewport(1024, 768);
    renderRowButton();
    expect(getComputedStyle(screen.getByRole('button', { name: 'Move Abacus to...' })).minHeight).not.toBe(
      '44px',
    );
  });
});

describe('global.css: the × that clears a field, on a touch screen', () => {
  restoreViewportAfterEach();
  const renderClearable = () =>
    render(
      <MantineProvider env="test" theme={theme}>
        <Select label="Party" data={['The Lantern Bearers']} defaultValue="The Lantern Bearers" clearable />
      </MantineProvider>,
    );

  it('is a finger wide on a phone, where Mantine drew it 22 px beside the chevron', () => {
    // Outside sweep: 22 x 22 px on the character form's Party and the shop forms' fields at 375 px.
    useStyles('Input', 'Combobox', 'CloseButton');
    useTouchScreen();
    setViewport(375, 812);
    const { container } = renderClearable();
    const clear = getComputedStyle(container.querySelector('.mantine-InputClearButton-root') as Element);
    expect(clear.minWidth).toBe('28px');
    expect(clear.minHeight).toBe('28px');
    // The text stops before the wider × and the chevron, rather than run under them.
    const wrapper = container.querySelector('.mantine-Select-wrapper') as Element;
    expect(getComputedStyle(wrapper).getPropertyValue('--input-padding-inline-end')).toBe('56px');
  });

  it('keeps its size under a mouse', () => {
    useStyles('Input', 'Combobox', 'CloseButton');
    setViewport(1280, 800);
    const { container } = renderClearable();
    const clear = getComputedStyle(container.querySelector('.mantine-InputClearButton-root') as Element);
    expect(clear.minWidth).not.toBe('28px');
  });

  it('keeps the text out from under the × and the chevron under a mouse too', () => {
    // Screen sweep (1280 px): the field's text stopped 34 px from its end, under the 50 px that hold the ×
    // and the chevron; Mantine's own rule for that padding never applies (it names the wrapper twice).
    useStyles('Input', 'Combobox', 'CloseButton');
    setViewport(1280, 800);
    const { container } = renderClearable();
    const wrapper = container.querySelector('.mantine-Select-wrapper') as Element;
    const section = container.querySelector('.mantine-Input-section[data-position="right"]') as Element;
    const sectionWidth = getComputedStyle(section).getPropertyValue('--section-size');
    expect(sectionWidth).toBe('calc(3.125rem * 1)');
    expect(getComputedStyle(wrapper).getPropertyValue('--input-padding-inline-end')).toBe(sectionWidth);
  });
});

describe('global.css: toasts on a short screen and over the item sheet', () => {
  restoreViewportAfterEach();
  const renderToasts = () => {
    const toasts = document.createElement('div');
    toasts.className = 'haversack-toasts';
    toasts.dataset.position = 'top-right';
    document.body.append(toasts);
    onTestFinished(() => toasts.remove());
    return toasts;
  };

  it('open at the bottom of a landscape phone, off the top row of the list', () => {
    useStyles();
    setViewport(667, 375);
    expect(getComputedStyle(renderToasts()).top).toBe('auto');
  });

  it('open at the top of a portrait phone, below the header, as before', () => {
    useStyles();
    setViewport(375, 667);
    expect(getComputedStyle(renderToasts()).top).not.toBe('auto');
  });

  it('leave the item sheet’s close button clear while the sheet is open', () => {
    // Review (touch): "Item(s) would exceed weight limit" lay over the sheet's × for 3 s at 667x375.
    useStyles();
    setViewport(667, 375);
    const toasts = renderToasts();
    const sheet = document.createElement('section');
    sheet.className = 'mantine-Drawer-content';
    sheet.setAttribute('aria-modal', 'true');
    document.body.append(sheet);
    onTestFinished(() => sheet.remove());
    const style = getComputedStyle(toasts);
    expect(style.top).not.toBe('auto');
    // The × and the sheet's padding beside it (2.75 rem) are left clear.
    expect(style.right).toContain('44px');
  });
});

describe('global.css: a table that scrolls sideways', () => {
  it('keeps a badge in a cell whole rather than cut at the cell’s edge', () => {
    // Review (tablet): the audit log's "ENTERED A…" at 768 px.
    useStyles('Badge', 'Table');
    render(
      <MantineProvider env="test" theme={theme}>
        <Table>
          <Table.Tbody>
            <Table.Tr>
              <Table.Td>
                <Badge>Entered admin area</Badge>
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </MantineProvider>,
    );
    expect(
      getComputedStyle(screen.getByText('Entered admin area').closest('.mantine-Badge-root') as Element)
        .minWidth,
    ).toBe('max-content');
  });

  it('shows that it scrolls: a shadow drawn at an edge with more beyond it', () => {
    useStyles('Table', 'ScrollArea');
    render(
      <MantineProvider env="test" theme={theme}>
        <Table.ScrollContainer minWidth={760} data-testid="scroller">
          <Table>
            <Table.Tbody>
              <Table.Tr>
                <Table.Td>Action</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </MantineProvider>,
    );
    // Mantine's container is a ScrollArea: its viewport is what scrolls.
    const viewport = screen.getByTestId('scroller').querySelector('.mantine-ScrollArea-viewport');
    if (!viewport) throw new Error('No scrolling viewport');
    // Its scroll position drives the shadows drawn over its edges (happy-dom, like Chromium, takes
    // animation-timeline; elsewhere the shadows are the viewport's background).
    expect(getComputedStyle(viewport).getPropertyValue('scroll-timeline')).toContain('--haversack-table-x');
    expect(getComputedStyle(screen.getByTestId('scroller')).getPropertyValue('timeline-scope')).toBe(
      '--haversack-table-x',
    );
  });
});
