import { Anchor, Box, Container, Group } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { Brand } from '../../components/brand';
import { SiteFooter } from '../../components/site-footer';
import { ThemeToggleButton } from '../../components/theme-toggle-button';
import { useAuthStore } from '../../stores/auth-store';

/** The basic layout: public pages that need no sign-in (about, home, diagnostics, share links). */
export function BasicLayout() {
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
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
