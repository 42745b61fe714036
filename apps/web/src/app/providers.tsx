import { MantineProvider } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { ModalsProvider } from '@mantine/modals';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PreferencesEffects } from '../features/preferences/components/preferences-effects';
import { queryClient } from '../lib/query-client';
import { useUiStore } from '../stores/ui-store';
import { DeferredNotifications } from './deferred-notifications';
import { SessionManager } from './session-manager';
import { cssVariablesResolver, theme } from './theme';

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
        <ModalsProvider>
          <SessionManager />
          <PreferencesEffects />
          {children}
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
