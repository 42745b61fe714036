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
    <AppShell.Section grow component={ScrollArea}>
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
