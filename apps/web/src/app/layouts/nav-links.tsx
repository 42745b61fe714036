import { AppShell, NavLink, ScrollArea } from '@mantine/core';
import { Link } from 'react-router';
import { useUiStore } from '../../stores/ui-store';
import { NotificationsNavBadge } from './nav-badges';
import { isNavItemActive, type NavItem } from './navigation';

/** A layout's navigation links, the current page marked (`exact`: only its own address counts). */
export function NavLinks({
  items,
  pathname,
  exact = false,
}: {
  items: NavItem[];
  pathname: string;
  exact?: boolean;
}) {
  const section = useUiStore((state) => state.navSection);
  return (
    // The scroll bar shows whenever the links overflow, not only under a hovering mouse: a phone held
    // sideways (375 px tall) holds five of the eleven links, and a touch screen never hovers to reveal
    // that the rest are below (review "tablet"). It takes its own room only when it is there.
    <AppShell.Section grow component={ScrollArea} type="auto" offsetScrollbars="present">
      {items.map((item) => {
        const Icon = item.icon;
        const active = isNavItemActive(item, pathname, exact, section);
        return (
          <NavLink
            key={item.href}
            component={Link}
            to={item.href}
            label={item.label}
            leftSection={<Icon size={18} aria-hidden="true" />}
            active={active}
            aria-current={active ? 'page' : undefined}
            rightSection={item.href === '/notifications' ? <NotificationsNavBadge /> : undefined}
          />
        );
      })}
    </AppShell.Section>
  );
}
