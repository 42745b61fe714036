import { MantineProvider } from '@mantine/core';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProviders } from './providers';
import { cssVariablesResolver, theme } from './theme';

afterEach(cleanup);

const header =
  '/* Generated from theme.ts (the theme and cssVariablesResolver) by theme-variables.test.tsx: the CSS\n' +
  "   variables Mantine's provider would write into the page on its first render. After a change to the\n" +
  '   theme, write it again with `npx vitest run --project web -u src/app/theme-variables.test.tsx`. */\n';

/** What Mantine's provider writes into the page for the theme and resolver: its `<style>`, a declaration a line. */
function renderedVariables(): string {
  const { container } = render(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <span />
    </MantineProvider>,
  );
  const css = container.querySelector('style[data-mantine-styles="true"]')?.textContent ?? '';
  return [...css.matchAll(/([^{}]+)\{([^}]*)\}/g)]
    .map(([, selector = '', body = '']) => {
      const declarations = body.split(';').filter((declaration) => declaration.trim() !== '');
      return `${selector.trim()} {\n${declarations.map((d) => `  ${d.trim()};\n`).join('')}}\n`;
    })
    .join('\n');
}

describe('theme-variables.css', () => {
  it("holds the CSS variables Mantine's provider writes for the theme (no stale copy)", async () => {
    const css = renderedVariables();
    // The readable shades of the app's resolver are among them (a real render, not an empty one).
    expect(css).toMatch(/--mantine-color-red-filled:/);
    expect(css).toMatch(/:root\[data-mantine-color-scheme="dark"\]/);
    await expect(`${header}${css}`).toMatchFileSnapshot('./theme-variables.css');
  });

  it('is what the app gets instead: its provider computes and writes no variables of its own', () => {
    const { container } = render(
      <AppProviders>
        <span />
      </AppProviders>,
    );
    expect(container.querySelector('style[data-mantine-styles="true"]')).toBeNull();
    expect(document.querySelector('style[data-mantine-styles="true"]')).toBeNull();
  });
});
