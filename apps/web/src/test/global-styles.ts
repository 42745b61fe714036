import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { onTestFinished } from 'vitest';

const require = createRequire(import.meta.url);
// Read from the file: vitest hands CSS modules to tests empty, `?raw` included.
const globalCss = readFileSync(require.resolve('../app/global.css'), 'utf8');
const mantineCss = (component: string) =>
  readFileSync(require.resolve(`@mantine/core/styles/${component}.css`), 'utf8');

/**
 * Mantine's variables and the styles of these components, then the app's global.css, as main.tsx orders
 * them, for a test that asks what a rule of global.css does to a component; gone after the test.
 */
export function useGlobalStyles(...components: string[]) {
  const style = document.createElement('style');
  style.textContent = [...['default-css-variables', ...components].map(mantineCss), globalCss].join('\n');
  document.head.append(style);
  onTestFinished(() => style.remove());
}

/** happy-dom answers `(pointer: coarse)` by the touch points the navigator reports; undone after the test. */
export function useTouchScreen() {
  const initial = Object.getOwnPropertyDescriptor(navigator, 'maxTouchPoints');
  Object.defineProperty(navigator, 'maxTouchPoints', { configurable: true, get: () => 5 });
  onTestFinished(() => {
    if (initial) Object.defineProperty(navigator, 'maxTouchPoints', initial);
    else Reflect.deleteProperty(navigator, 'maxTouchPoints');
  });
}
