import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { usedMantineStyles } from '../../scripts/mantine-styles-plugin.mjs';

const foundation = ['baseline', 'default-css-variables', 'global'];
const wholeStylesheet = readFileSync(
  createRequire(import.meta.url).resolve('@mantine/core/styles.css'),
  'utf8',
);

const scratch: string[] = [];
/** The styles a source tree made of these files needs. */
function stylesFor(files: Record<string, string>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mantine-styles-'));
  scratch.push(dir);
  for (const [name, code] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), code);
  }
  return usedMantineStyles(dir);
}

afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("Mantine's styles per component (issue 13 §1)", () => {
  it('brings a component with the parts it is built from, and nothing else', () => {
    const styles = stylesFor({ 'form.tsx': "import { Switch } from '@mantine/core';\n" });
    // A Switch lays out its label with InlineInput (utils/, not components/): without it the label falls
    // under the track.
    expect(styles.slice(0, 3)).toEqual(foundation);
    for (const part of ['Switch', 'InlineInput', 'Input']) expect(styles).toContain(part);
    for (const unused of ['Button', 'Table', 'Modal', 'Tabs']) expect(styles).not.toContain(unused);

    const select = stylesFor({
      'pick.tsx': "import {\n  Select,\n  Button as Action,\n} from '@mantine/core';",
    });
    for (const part of ['Input', 'Combobox', 'Popover', 'ScrollArea', 'Button', 'UnstyledButton'])
      expect(select).toContain(part);
    expect(select).not.toContain('Table');
  });

  it('leaves out what is imported as a type, and brings everything for a namespace import', () => {
    expect(stylesFor({ 'a.ts': "import type { ButtonProps } from '@mantine/core';" })).toEqual(foundation);
    expect(stylesFor({ 'a.tsx': "import { type ButtonProps, Text } from '@mantine/core';" })).toEqual([
      ...foundation,
      'Text',
    ]);
    expect(stylesFor({ 'a.test.tsx': "import { Table } from '@mantine/core';" })).toEqual(foundation);
    const everything = stylesFor({ 'a.tsx': "import * as Mantine from '@mantine/core';" });
    expect(everything).toContain('Stepper');
    expect(everything.length).toBeGreaterThan(100);
  });

  it("covers every component the app imports, in styles.css's order", () => {
    const styles = usedMantineStyles();
    expect(styles.slice(0, 3)).toEqual(foundation);
    // Some of what the app draws, directly or inside other components.
    for (const part of [
      'AppShell',
      'Button',
      'Modal',
      'ModalBase',
      'Overlay',
      'Notification',
      'Table',
      'Switch',
    ])
      expect(styles).toContain(part);
    // The order of the whole stylesheet, so that the cascade is unchanged.
    const at = styles.map((name) => {
      const own = readFileSync(
        createRequire(import.meta.url).resolve(`@mantine/core/styles/${name}.css`),
        'utf8',
      ).trim();
      return wholeStylesheet.indexOf(own.slice(0, 400));
    });
    expect(at.every((position) => position >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });
});
