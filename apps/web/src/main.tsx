// The styles of the Mantine components the app uses, in styles.css's order (scripts/mantine-styles-plugin.mjs).
import 'virtual:mantine-styles';
// The theme's variables over Mantine's defaults (what MantineProvider would write on its first render).
import './app/theme-variables.css';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAppRouter } from './app/app';
import { keepFocusThroughBusyButtons } from './lib/keep-focus-through-busy-buttons';
import { reloadOnStaleCode } from './lib/reload-on-stale-code';
import { startSessionEarly } from './lib/session';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to mount Haversack in.');

// The current user is asked for now, while React draws the first screen (issue 13 §1).
startSessionEarly();
keepFocusThroughBusyButtons();
// Where the router is going, while a page's code loads (the router exists once start() has made it).
let router: ReturnType<typeof createAppRouter> | undefined;
reloadOnStaleCode(() => {
  const going = router?.state.navigation.location;
  return going ? `${going.pathname}${going.search}${going.hash}` : null;
});

/** Lets the browser run what waits (input, painting) before the next step of the start-up. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

// The start-up runs as three tasks rather than one long one that blocks a phone's main thread (issue 13 §1):
// this module's evaluation, the router's creation (it matches the URL and starts the page's lazy loads), and
// the first render, a transition that React draws in slices of a few milliseconds between which the
// browser stays free. Until it commits, the page shows index.html's painted name.
async function start(root: HTMLElement) {
  await nextTask();
  const appRouter = createAppRouter();
  router = appRouter;
  await nextTask();
  const reactRoot = createRoot(root);
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <App router={appRouter} />
      </StrictMode>,
    );
  });
}

void start(container);
