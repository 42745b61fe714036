import { AppShell, Avatar, Badge, Box, Burger, Button, Group, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery, useReducedMotion } from '@mantine/hooks';
import { IconDoorExit, IconLogout } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { mainContentId, SkipToMainLink } from '../../components/skip-to-main-link';
import { ThemeToggle } from '../../components/theme-toggle';
import { exitAdminMode } from '../../features/admin/api/admin-session-api';
import { AdminSessionGuard } from '../../features/admin/components/admin-session-guard';
import { formatWhen } from '../../lib/format';
import { hasUnsavedChanges } from '../../lib/unsaved-changes';
import { displayNameOf, useCurrentUser } from '../../stores/auth-store';
import { NavLinks } from './nav-links';
import { adminNavigation, burgerTarget } from './navigation';
import { useEscapeClosesMenu } from './use-escape-closes-menu';
import { useSignOut } from './use-sign-out';

/**
 * spec/01 §2 admin area: the admin bar (email, initial of the username, ADMIN MODE badge, Exit Admin Mode
 * link to /dashboard, a static session timer and last action) and the admin side menu.
 */
export function AdminLayout() {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const [menuOpen, { toggle, close }] = useDisclosure(false);
  const isMobile = useMediaQuery('(max-width: 47.99em)') ?? false;
  // Below 360 px even "Exit" lies on the ADMIN MODE badge: the button keeps only its icon (and its name).
  const isNarrowPhone = useMediaQuery('(max-width: 22.49em)') ?? false;
  const reduceMotion = useReducedMotion();
  const [sessionStartedAt] = useState(() => new Date());
  const initial = (displayNameOf(user) || '?').charAt(0).toUpperCase();
  const menuKeys = useEscapeClosesMenu({ open: menuOpen, isMobile, close });
  // The admin session ends first: signing out revokes the bearer token its ending needs.
  const signOut = useSignOut(exitAdminMode);
  // Exit Admin Mode with a draft on the page waits for the user's "Leave this page?" answer: the admin
  // session ends once the area is left, not while the user may still choose to stay with the draft.
  const exitOnLeave = useRef(false);
  useEffect(
    () => () => {
      if (exitOnLeave.current) void exitAdminMode();
    },
    [],
  );

  // spec/01 §2: each admin page visit is logged to the console.
  useEffect(() => {
    console.info(`[admin] page visit: ${pathname}`);
    close();
  }, [pathname, close]);

  return (
    <AppShell
      // The sidebar slides in and out, unless motion is to be reduced (theme.respectReducedMotion does not
      // reach AppShell's own transition).
      transitionDuration={reduceMotion ? 0 : 200}
      header={{ height: 60 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !menuOpen } }}
      padding="md"
    >
      <AppShell.Header data-testid="admin-bar">
        <SkipToMainLink />
        {/* A phone's bar is full (the 44 px navigation button included): narrower margins and gaps and a
            smaller badge keep the initial off the ADMIN MODE badge down to 360 px. */}
        <Group
          h="100%"
          px={isMobile ? 'xs' : 'md'}
          gap={isMobile ? 'xs' : 'md'}
          justify="space-between"
          wrap="nowrap"
        >
          <Group gap={isMobile ? 6 : 'sm'} wrap="nowrap">
            <Burger
              ref={menuKeys.burgerRef}
              opened={menuOpen}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              // Shown on phones only, where it is a finger's width (44 px) square: Mantine's is 28 px.
              style={burgerTarget}
              aria-label={menuOpen ? 'Close admin navigation' : 'Open admin navigation'}
              aria-expanded={menuOpen}
              aria-controls="admin-navigation"
            />
            <Badge
              color="red.9"
              variant="filled"
              size={isMobile ? 'sm' : 'md'}
              style={{ flexShrink: 0 }}
              data-testid="admin-mode-badge"
            >
              ADMIN MODE
            </Badge>
            <Text size="xs" c="dimmed" visibleFrom="md">
              Session started {formatWhen(sessionStartedAt, 'time')} · Last action: page view
            </Text>
          </Group>
          <Group gap={isMobile ? 6 : 'sm'} wrap="nowrap">
            <Text size="sm" visibleFrom="sm" data-testid="admin-email">
              {user?.email}
            </Text>
            <Avatar
              size="sm"
              radius="xl"
              color="red.9"
              variant="filled"
              role="img"
              aria-label={`Signed in as ${displayNameOf(user)}`}
            >
              {initial}
            </Avatar>
            <ThemeToggle />
            <Button
              component={Link}
              to="/dashboard"
              // Ends the admin session on the server; the link leaves at once whatever the answer.
              onClick={() => {
                if (hasUnsavedChanges()) exitOnLeave.current = true;
                else void exitAdminMode();
              }}
              variant="default"
              size="compact-sm"
              aria-label="Exit Admin Mode"
              leftSection={<IconDoorExit size={16} aria-hidden="true" />}
              styles={{ section: { marginInlineEnd: isNarrowPhone ? 0 : undefined } }}
            >
              {/* A phone has room for the badge, the initial and a short label only. */}
              <Box component="span" visibleFrom="xs">
                Exit Admin Mode
              </Box>
              {isNarrowPhone ? null : (
                <Box component="span" hiddenFrom="xs">
                  Exit
                </Box>
              )}
            </Button>
            <Button
              onClick={() => void signOut()}
              variant="subtle"
              color="gray"
              size="compact-sm"
              aria-label="Sign Out"
              leftSection={<IconLogout size={16} aria-hidden="true" />}
              // A phone shows the icon only (its name stays "Sign Out"); the section's gap then goes.
              styles={{ section: { marginInlineEnd: isMobile ? 0 : undefined } }}
            >
              <Box component="span" visibleFrom="sm">
                Sign Out
              </Box>
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar
        p="xs"
        id="admin-navigation"
        aria-label="Admin"
        inert={isMobile && !menuOpen}
        ref={menuKeys.menuRef}
        // On a phone the menu closes once a page is chosen, taking the focused link with it: RouteFocus then
        // gives the new page's heading the focus, as in the main layout.
        data-closes-on-navigation={isMobile || undefined}
      >
        <NavLinks items={adminNavigation} pathname={pathname} exact />
        {/* spec/01 §2: the bar shows the admin's email; a phone's bar has no room, its menu says it. */}
        <AppShell.Section hiddenFrom="sm" p="xs" mt="sm">
          <Text size="xs" c="dimmed">
            Signed in as
          </Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="admin-email-menu">
            {user?.email}
          </Text>
        </AppShell.Section>
        {/* A phone's menu: its own Close button, as the header's X is outside the menu's focus trap. */}
        {isMobile ? (
          <AppShell.Section p="xs">
            <Button
              variant="subtle"
              color="gray"
              size="compact-sm"
              onClick={() => {
                close();
                menuKeys.burgerRef.current?.focus();
              }}
            >
              Close menu
            </Button>
          </AppShell.Section>
        ) : null}
      </AppShell.Navbar>
      <AppShell.Main id={mainContentId} tabIndex={-1} inert={menuKeys.coversPage}>
        <AdminSessionGuard>
          <Outlet />
        </AdminSessionGuard>
      </AppShell.Main>
    </AppShell>
  );
}
