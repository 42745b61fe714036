import { Anchor, Box, Container, Group } from '@mantine/core';
import { Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { useShallow } from 'zustand/react/shallow';
import { Brand } from '../../components/brand';
import { FullPageLoader } from '../../components/loading';
import { SiteFooter } from '../../components/site-footer';
import { ThemeToggleButton } from '../../components/theme-toggle-button';
import { withQueryClient } from '../../lib/query-client-loader';
import { useAuthStore } from '../../stores/auth-store';
import { checkingAuthLabel } from '../guards/protected-route';
import { lazyComponent } from '../lazy-component';

const MainLayout = lazyComponent(() =>
  withQueryClient(() => import('./main-layout')).then((m) => m.MainLayout),
);

/**
 * Pages of the app that a visitor may read too (the plans, public as GET /subscription/tiers is): signed in,
 * they are drawn in the main layout, as every other plan screen. Decided here rather than by a layout route
 * of their own, which would add to the route table that /login's first load carries.
 */
const openToVisitors = ['/subscription/compare'];

/** The basic layout: public pages that need no sign-in (about, home, diagnostics, share links, plans). */
export function BasicLayout() {
  const { isAuthenticated, isInitializing } = useAuthStore(
    useShallow((state) => ({ isAuthenticated: state.isAuthenticated, isInitializing: state.isInitializing })),
  );
  const { pathname } = useLocation();
  if (openToVisitors.includes(pathname.replace(/\/+$/, ''))) {
    // Not the visitor's page first and then the member's: wait for the session, as the guards do.
    if (isInitializing) return <FullPageLoader label={checkingAuthLabel} />;
    if (isAuthenticated) {
      return (
        <Suspense fallback={<FullPageLoader label={checkingAuthLabel} />}>
          <MainLayout />
        </Suspense>
      );
    }
  }
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Group component="header" justify="space-between" px="md" py="sm" wrap="nowrap">
        <Brand />
        <Group gap="sm" wrap="nowrap" component="nav" aria-label="Site">
          {isAuthenticated ? (
            <Anchor component={Link} to="/dashboard">
              Dashboard
            </Anchor>
          ) : (
            <Anchor component={Link} to="/login">
              Sign in
            </Anchor>
          )}
          <ThemeToggleButton withTitle />
        </Group>
      </Group>
      <Container component="main" size="md" w="100%" px="md" py="xl" style={{ flex: 1 }}>
        <Outlet />
      </Container>
      <SiteFooter />
    </Box>
  );
}
