import { deferredComponent } from '../../components/deferred-component';

/**
 * The unread count beside Notifications, loaded after the shell (its queries and the cable subscription
 * are not needed for the first screen, and never on /login).
 */
export const NotificationsNavBadge = deferredComponent<Record<string, never>>(() =>
  import('../../features/notifications/components/notifications-nav-badge').then((m) => m.default),
);

/** The unread dot on a closed navigation's button (a phone's burger, the folded sidebar's toggle). */
export const NotificationsMenuCue = deferredComponent<{ describedBy: string }>(() =>
  import('../../features/notifications/components/notifications-nav-badge').then(
    (m) => m.NotificationsMenuCue,
  ),
);
