import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { startSessionEarly } from './lib/session';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to mount Haversack in.');

// The current user is asked for now, while React draws the first screen (issue 13 §1).
startSessionEarly();

// The first render is a transition: React draws it in slices of a few milliseconds between which the
// browser stays free (a phone's main thread is not blocked for the whole start-up; issue 13 §1). Until it
// commits, the page shows index.html's painted name.
const root = createRoot(container);
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
