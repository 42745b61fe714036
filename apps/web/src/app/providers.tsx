import { MantineProvider } from '@mantine/core';
import { QueryClientContext } from '@tanstack/react-query';
import { type ReactNode, useEffect, useSyncExternalStore } from 'react';
import { deferredComponent } from '../components/deferred-component';
import { loadedQueryClient, subscribeToQueryClient, withQueryClient } from '../lib/query-client-loader';
import { useUiStore } from '../stores/ui-store';
import { AppToasts } from './app-toasts';
import { SessionManager, useHasBeenSignedIn } from './session-manager';
import { theme } from './theme';

// Signed out, the preferences do nothing: their effects (and the preferences contract) load with the
// first sign-in, so /login does not carry them (issue 13 §1).
const PreferencesEffects = deferredComponent(() =>
  withQueryClient(() => import('../features/preferences/components/preferences-effects')).then(
    (m) => m.PreferencesEffects,
  ),
);

/**
 * What QueryClientProvider does, for a client that loads after the first screen (lib/query-client-loader):
 * the same context, so nothing below is drawn again when the client arrives, and the client mounted
 * (window focus and reconnection) while it is in use.
 *
 * It sits inside the router (the root route's layout), not around it: the first render is a transition
 * drawn in slices (main.tsx), and a provider drawn before the router could read "no client yet" while the
 * router, drawn a slice later, read a page whose code and client had come in meanwhile. That page then
 * drew without a client ("No QueryClient set", the root's error page, until React drew it all again).
 * Drawn below the router, the client is read after the page was: a page that waits for it finds it.
 * The signed-in effects, which use queries too, are drawn with it.
 */
export function LazyQueryClientProvider({ children }: { children: ReactNode }) {
  const client = useSyncExternalStore(subscribeToQueryClient, loadedQueryClient, loadedQueryClient);
  useEffect(() => {
    if (!client) return;
    client.mount();
    return () => client.unmount();
  }, [client]);
  return (
    <QueryClientContext.Provider value={client ?? undefined}>
      <SignedInEffects />
      {children}
    </QueryClientContext.Provider>
  );
}

/** Drawn with the client (in LazyQueryClientProvider): the signed-in preferences use queries. */
function SignedInEffects() {
  if (!useHasBeenSignedIn()) return null;
  return <PreferencesEffects />;
}

export function AppProviders({ children }: { children: ReactNode }) {
  // The UI store owns the scheme: the one last used in this browser (dark at first), the same signed in or out.
  const colorScheme = useUiStore((state) => state.theme);
  // The theme's CSS variables are a stylesheet computed ahead (theme-variables.css, main.tsx): Mantine would
  // compute them on its first render, some 1,700 contrast checks that held a phone's main thread (issue 13).
  return (
    <MantineProvider theme={theme} withCssVariables={false} forceColorScheme={colorScheme}>
      <AppToasts />
      <SessionManager />
      {children}
    </MantineProvider>
  );
}
