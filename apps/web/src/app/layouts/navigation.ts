import {
  IconActivity,
  IconBell,
  IconBox,
  IconBuildingStore,
  IconBuildingWarehouse,
  IconChartBar,
  IconClockPlay,
  IconCoins,
  IconCrown,
  IconFileReport,
  IconFlag,
  IconFolder,
  IconHeartbeat,
  IconHistory,
  IconLayoutDashboard,
  IconMail,
  IconReportMoney,
  IconSettings,
  IconShieldLock,
  IconStack2,
  IconSword,
  IconUserCircle,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import type { NavSection } from '../../stores/ui-store';

export interface NavItem {
  label: string;
  href: string;
  icon: ComponentType<{ size?: number; 'aria-hidden'?: boolean | 'true' }>;
  /** Paths that also mark this item active (e.g. /containers under Characters). */
  alsoActiveUnder?: string[];
}

/** spec/01 §2 main layout sections, in the order a player meets them. */
export const mainNavigation: NavItem[] = [
  { label: 'Dashboard', href: '/dashboard', icon: IconLayoutDashboard },
  { label: 'Characters', href: '/characters', icon: IconSword, alsoActiveUnder: ['/containers'] },
  { label: 'Parties', href: '/parties', icon: IconUsersGroup },
  { label: 'Marketplace', href: '/marketplace', icon: IconBuildingWarehouse },
  { label: 'Items', href: '/items', icon: IconBox },
  { label: 'My Content', href: '/my-content', icon: IconFolder },
  { label: 'Shops', href: '/shops', icon: IconBuildingStore },
  { label: 'Loot', href: '/loot/templates', icon: IconCoins, alsoActiveUnder: ['/loot'] },
  { label: 'Subscription', href: '/subscription', icon: IconCrown },
  { label: 'Notifications', href: '/notifications', icon: IconBell },
  { label: 'Profile', href: '/profile', icon: IconUserCircle },
];

export const adminEntry: NavItem = { label: 'Admin', href: '/admin', icon: IconShieldLock };

/** spec/01 §2 admin side menu (Background Jobs opens the queue's page at /admin/jobs, not /admin/sidekiq). */
export const adminNavigation: NavItem[] = [
  { label: 'Dashboard', href: '/admin', icon: IconLayoutDashboard, alsoActiveUnder: ['/admin/dashboard'] },
  { label: 'Analytics', href: '/admin/analytics', icon: IconChartBar },
  { label: 'Users', href: '/admin/users', icon: IconUsers },
  { label: 'Moderation', href: '/admin/moderation', icon: IconFlag },
  { label: 'Audit Logs', href: '/admin/audit', icon: IconHistory },
  { label: 'Financial', href: '/admin/financial', icon: IconReportMoney },
  { label: 'Bulk Operations', href: '/admin/bulk-operations', icon: IconStack2 },
  { label: 'Communications', href: '/admin/communications', icon: IconMail },
  { label: 'Reports', href: '/admin/reports', icon: IconFileReport },
  { label: 'Monitoring', href: '/admin/monitoring', icon: IconActivity },
  // The spec's /admin/sidekiq (an external job dashboard): here the queue's own page.
  { label: 'Background Jobs', href: '/admin/jobs', icon: IconClockPlay },
  { label: 'System Health', href: '/admin/system-health', icon: IconHeartbeat },
  { label: 'Settings', href: '/admin/settings', icon: IconSettings },
];

/** `section`: the entry the page itself named (a party's stash under Parties), which wins over its address. */
export function isNavItemActive(
  item: NavItem,
  pathname: string,
  exact = false,
  section: NavSection | null = null,
): boolean {
  if (section && section.pathname === pathname) return item.href === section.href;
  const prefixes = [item.href, ...(item.alsoActiveUnder ?? [])];
  return prefixes.some((prefix) =>
    exact && prefix === item.href
      ? pathname === prefix
      : pathname === prefix || pathname.startsWith(`${prefix}/`),
  );
}

/**
 * The navigation button, shown on phones only: a finger's width (44 px) square, as Apple's and Android's
 * guidance ask, its 18 px lines centred (Mantine's is 28 px).
 */
export const burgerTarget = { width: 44, height: 44, padding: 13, position: 'relative' } as const;
