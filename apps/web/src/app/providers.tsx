import { MantineProvider } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense } from 'react';
import { queryClient } from '../lib/query-client';
import { useUiStore } from '../stores/ui-store';
import { DeferredNotifications } from './deferred-notifications';
import { SessionManager, useHasBeenSignedIn } from './session-manager';
import { cssVariablesResolver, theme } from './theme';

// Signed out, the preferences do nothing: their effects (and the preferences contract) load with the
// first sign-in, so /login does not carry them (issue 13 §1).
const PreferencesEffects = lazy(() =>
  import('../features/preferences/components/preferences-effects').then((m) => ({
    default: m.PreferencesEffects,
  })),
);

function SignedInEffects() {
  if (!useHasBeenSignedIn()) return null;
  return (
    <Suspense fallback={null}>
      <PreferencesEffects />
    </Suspense>
  );
}

export function AppProviders({ children }: { children: ReactNode }) {
  // The UI store owns the scheme: the one last used in this browser (dark at first), the same signed in or out.
  const colorScheme = useUiStore((state) => state.theme);
  // Toasts sit over the top of a phone screen (title, breadcrumbs): show fewer at once there. They stack
  // above modals (z-index 200) but under dropdowns (300), so a list that opens upwards on a phone (the
  // transfer queue's Destination) is never hidden behind the toast that asked for it.
  const phone = useMediaQuery('(max-width: 47.99em)');
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} forceColorScheme={colorScheme}>
      <DeferredNotifications
        className="haversack-toasts"
        position="top-right"
        limit={phone ? 2 : 5}
        zIndex={250}
      />
      <QueryClientProvider client={queryClient}>
        <SessionManager />
        <SignedInEffects />
        {children}
      </QueryClientProvider>
    </MantineProvider>
  );
}
