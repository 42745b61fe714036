import { ActionIcon, AppShell, Burger, Button, Group, Loader } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Outlet, useLocation, useNavigation } from 'react-router';
import { Brand } from '../../components/brand';
import { MaintenanceBanner } from '../../components/maintenance-banner';
import { pageSkipLinksId } from '../../components/page-skip-link';
import { SiteFooter } from '../../components/site-footer';
import { mainContentId, SkipToMainLink } from '../../components/skip-to-main-link';
import { ThemeToggle } from '../../components/theme-toggle';
import { AnnouncementBanners } from '../../features/announcements/components/announcement-banners';
import { useUpdatePreferences } from '../../features/preferences/api/preferences-api';
import { DemoBillingBadge } from '../../features/subscription/components/demo-billing-badge';
import { usePhone } from '../../lib/use-phone';
import { useAuthStore } from '../../stores/auth-store';
import { useUiStore } from '../../stores/ui-store';
import { Notifications } from '../deferred-notifications';
import { NotificationsMenuCue } from './nav-badges';
import { NavLinks } from './nav-links';
import { adminEntry, burgerTarget, mainNavigation, type NavItem } from './navigation';
import { useEscapeClosesMenu } from './use-escape-closes-menu';
import { UserMenu } from './user-menu';

/** The signed-in shell: header, a side navigation (a drawer-like menu below the sm breakpoint), content. */
/** The ids of the unread counts that describe the buttons of a closed navigation. */
const menuUnreadId = 'menu-unread-notifications';
const sidebarUnreadId = 'sidebar-unread-notifications';

export function MainLayout() {
  const sidebarOpen = useUiStore((state) => state.sidebarOpen);
  const toggleSidebar = useUiStore((state) => state.toggleSidebar);
  const mobileMenuOpen = useUiStore((state) => state.mobileMenuOpen);
  const toggleMobileMenu = useUiStore((state) => state.toggleMobileMenu);
  const setMobileMenuOpen = useUiStore((state) => state.setMobileMenuOpen);
  const isAdmin = useAuthStore((state) => state.user?.admin === true);
  const { pathname } = useLocation();
  const reduceMotion = useReducedMotion();
  const navigation = useNavigation();
  const updatePreferences = useUpdatePreferences();
  // A collapsed navbar only slides off-screen: make it inert so keyboard users do not tab into it.
  // Known at the first render, so a phone does not draw the shell twice as the page starts (issue 13 §1).
  const isMobile = usePhone();
  const navbarHidden = isMobile ? !mobileMenuOpen : !sidebarOpen;
  // On a phone the menu starts closed, off-screen and inert: its links are drawn when it first opens, not as
  // the page starts, where they cost the first screen a render and a style and layout pass (issue 13 §1).
  const [menuOpenedOnce, setMenuOpenedOnce] = useState(false);
  if (mobileMenuOpen && !menuOpenedOnce) setMenuOpenedOnce(true);
  const navbarDrawn = !isMobile || menuOpenedOnce;
  // On a phone the open navigation is a drawer over the page: focus kept in it, the page inert, Escape.
  const menu = useEscapeClosesMenu({
    open: mobileMenuOpen,
    isMobile,
    close: () => setMobileMenuOpen(false),
  });

  // A chosen destination closes the mobile menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every path change by design
  useEffect(() => {
    setMobileMenuOpen(false);
  }, [pathname, setMobileMenuOpen]);

  // Signed in, the toasts' component loads at the first idle moment rather than with the first toast: the
  // toast that says the server cannot be reached is needed when the network is already gone.
  useEffect(() => {
    const preload = () => void Notifications.preload().catch(() => undefined);
    if (typeof window.requestIdleCallback !== 'function') {
      const timer = setTimeout(preload, 2_000);
      return () => clearTimeout(timer);
    }
    const idle = window.requestIdleCallback(preload, { timeout: 5_000 });
    return () => window.cancelIdleCallback(idle);
  }, []);

  const items = isAdmin ? [...mainNavigation, adminEntry] : mainNavigation;

  return (
    <AppShell
      // The sidebar slides in and out, unless motion is to be reduced (theme.respectReducedMotion does not
      // reach AppShell's own transition).
      transitionDuration={reduceMotion ? 0 : 200}
      header={{ height: 60 }}
      navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !mobileMenuOpen, desktop: !sidebarOpen } }}
      padding="md"
    >
      <AppShell.Header>
        <SkipToMainLink />
        {/* Pages add their own skip links here (the inventory workspace: "Skip to items"). */}
        <div id={pageSkipLinksId} />
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              ref={menu.burgerRef}
              opened={mobileMenuOpen}
              onClick={toggleMobileMenu}
              hiddenFrom="sm"
              size="sm"
              // Shown on phones only, where it is a finger's width (44 px) square: Mantine's is 28 px.
              style={burgerTarget}
              aria-label={mobileMenuOpen ? 'Close navigation' : 'Open navigation'}
              aria-expanded={mobileMenuOpen}
              aria-controls="main-navigation"
              aria-describedby={mobileMenuOpen ? undefined : menuUnreadId}
              data-testid="mobile-menu-button"
            >
              {mobileMenuOpen ? null : <NotificationsMenuCue describedBy={menuUnreadId} />}
            </Burger>
            {/* On wide screens the sidebar folds away rather than closing: a sidebar icon, not a cross. */}
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              onClick={toggleSidebar}
              visibleFrom="sm"
              aria-label={sidebarOpen ? 'Hide sidebar' : 'Show sidebar'}
              aria-expanded={sidebarOpen}
              aria-controls="main-navigation"
              aria-describedby={sidebarOpen ? undefined : sidebarUnreadId}
              pos="relative"
            >
              {sidebarOpen ? null : <NotificationsMenuCue describedBy={sidebarUnreadId} />}
              {sidebarOpen ? (
                <IconLayoutSidebarLeftCollapse size={20} aria-hidden="true" />
              ) : (
                <IconLayoutSidebarLeftExpand size={20} aria-hidden="true" />
              )}
            </ActionIcon>
            <Brand to="/dashboard" />
          </Group>
          <Group gap="sm" wrap="nowrap">
            <DemoBillingBadge visibleFrom="sm" />
            {navigation.state === 'loading' ? <Loader size="xs" aria-label="Loading page" /> : null}
            <ThemeToggle onToggle={(theme) => updatePreferences.mutate({ theme })} />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar
        ref={menu.menuRef}
        p="xs"
        id="main-navigation"
        aria-label="Main"
        inert={navbarHidden}
        // On a phone the menu closes once a page is chosen, taking the focused link with it: RouteFocus then
        // gives the new page's heading the focus, as for a link in a dialog.
        data-closes-on-navigation={isMobile || undefined}
      >
        {navbarDrawn ? (
          <NavbarContent
            items={items}
            pathname={pathname}
            onClose={
              isMobile
                ? () => {
                    setMobileMenuOpen(false);
                    menu.burgerRef.current?.focus();
                  }
                : undefined
            }
          />
        ) : null}
      </AppShell.Navbar>

      <AppShell.Main id={mainContentId} tabIndex={-1} inert={menu.coversPage}>
        <MaintenanceBanner />
        <AnnouncementBanners />
        <Outlet />
        {/* The way to /about and its SRD 5.1 attribution from every page that shows the catalogue. */}
        <SiteFooter />
      </AppShell.Main>
    </AppShell>
  );
}

/** The navigation's links and, on a phone, the demo-billing badge. */
function NavbarContent({
  items,
  pathname,
  onClose,
}: {
  items: NavItem[];
  pathname: string;
  /** A phone's menu: its own Close button, as the header's X is outside the menu's focus trap. */
  onClose?: () => void;
}) {
  return (
    <>
      <NavLinks items={items} pathname={pathname} />
      <AppShell.Section hiddenFrom="sm" p="xs">
        <DemoBillingBadge />
      </AppShell.Section>
      {onClose ? (
        <AppShell.Section p="xs">
          <Button variant="subtle" color="gray" size="compact-sm" onClick={onClose}>
            Close menu
          </Button>
        </AppShell.Section>
      ) : null}
    </>
  );
}
