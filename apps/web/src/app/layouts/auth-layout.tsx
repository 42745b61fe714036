import { Box, Container, Group, Paper } from '@mantine/core';
import { Outlet } from 'react-router';
import { Brand } from '../../components/brand';
import { SiteFooter } from '../../components/site-footer';
import { mainContentId, SkipToMainLink } from '../../components/skip-to-main-link';
import { ThemeToggleButton } from '../../components/theme-toggle-button';

/** The public authentication layout: a narrow card for sign-in, registration and password recovery. */
export function AuthLayout() {
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      {/* As in the app's own layout: the first Tab stop, shown only when focused. */}
      <SkipToMainLink />
      <Group component="header" justify="space-between" px="md" py="sm">
        <Brand />
        <ThemeToggleButton withTitle />
      </Group>
      <Container
        component="main"
        id={mainContentId}
        tabIndex={-1}
        size={460}
        w="100%"
        px="md"
        py="xl"
        style={{ flex: 1 }}
      >
        <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="md">
          <Outlet />
        </Paper>
      </Container>
      <SiteFooter />
    </Box>
  );
}
