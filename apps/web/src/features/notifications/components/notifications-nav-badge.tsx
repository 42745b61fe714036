import { Badge, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { myInvitationsQuery } from '../../parties/api/parties-api';
import { useNoticesLive } from '../api/notices-live';
import { notificationsQuery } from '../api/notifications-api';

/** What the Notifications entry adds to its name for a screen reader: "Notifications (3 unread)". */
export function unreadLabel(count: number): string {
  return `${count} unread`;
}

/** What a closed navigation's button is described by: "1 unread notification", "4 unread notifications". */
export function unreadNotificationsLabel(count: number): string {
  return `${unreadLabel(count)} ${count === 1 ? 'notification' : 'notifications'}`;
}

/** Invitations waiting for an answer plus unread notices, kept fresh by the user's own channel. */
function useUnreadCount(): number {
  useNoticesLive();
  const notices = useQuery(notificationsQuery());
  const invitations = useQuery(myInvitationsQuery());
  return (notices.data?.meta.unread_count ?? 0) + (invitations.data?.length ?? 0);
}

/**
 * The unread count on the navigation's Notifications entry: invitations waiting for an answer plus unread
 * notices. Loaded lazily with the signed-in shell (never in /login's first load). Inside the link, its
 * hidden words complete the link's name in brackets (the label and the badge sit in separate boxes, so a
 * leading comma would be read as "Notifications , 3 unread"); the number itself is not read twice.
 */
export default function NotificationsNavBadge() {
  const count = useUnreadCount();
  if (count === 0) return null;
  return (
    <>
      <Badge
        size="sm"
        variant="filled"
        circle={count < 10}
        aria-hidden="true"
        data-testid="notifications-badge"
      >
        {count > 99 ? '99+' : count}
      </Badge>
      <VisuallyHidden>({unreadLabel(count)})</VisuallyHidden>
    </>
  );
}

/**
 * A dot on the button that opens a closed navigation (a phone's menu, a folded sidebar), where the
 * Notifications entry and its count cannot be seen. The button keeps its own name ("Open navigation") and
 * is described by the count: `describedBy` is the id the button's aria-describedby names.
 */
export function NotificationsMenuCue({ describedBy }: { describedBy: string }) {
  const count = useUnreadCount();
  if (count === 0) return null;
  return (
    <>
      <span aria-hidden="true" data-testid="notifications-menu-cue" className="haversack-menu-cue" />
      <VisuallyHidden id={describedBy}>{unreadNotificationsLabel(count)}</VisuallyHidden>
    </>
  );
}
