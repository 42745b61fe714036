import { NOTIFICATIONS_CHANNEL } from '@haversack/contracts';
import type { Consumer, Subscription } from '@rails/actioncable';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getConsumer, onConsumerChange } from '../../../lib/cable';
import { partyKeys } from '../../parties/api/parties-api';
import { notificationKeys } from './notifications-api';

/**
 * The user's own NotificationsChannel, followed once however many parts of the page want it (the nav's
 * badge, the /notifications page): a second subscription with the same identifier would be dropped with
 * the first one's unsubscribe. A new notice, or notices marked read on another of the user's pages (another
 * device), refreshes the list and its unread count; a change of the user's pending invitations refreshes them.
 */
let users = 0;
let stop: (() => void) | null = null;

function follow(queryClient: QueryClient): () => void {
  let consumer: Consumer | null = null;
  let subscription: Subscription | null = null;
  const attach = (next: Consumer | null) => {
    if (subscription && consumer === getConsumer()) subscription.unsubscribe();
    consumer = next;
    subscription =
      next?.subscriptions.create(
        { channel: NOTIFICATIONS_CHANNEL },
        {
          received(data: unknown) {
            const action = data && typeof data === 'object' && 'action' in data ? data.action : null;
            if (action === 'notification_created' || action === 'notifications_read')
              void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
            // An invitation arrived, was withdrawn by its GM, or was answered on another page: the pending
            // invitations (Dashboard, /notifications, the badge's count) are refetched. It is no notice.
            if (action === 'invitations_changed')
              void queryClient.invalidateQueries({ queryKey: partyKeys.myInvitations() });
          },
        },
      ) ?? null;
  };
  attach(getConsumer());
  const stopFollowing = onConsumerChange(attach);
  return () => {
    stopFollowing();
    if (subscription && consumer === getConsumer()) subscription.unsubscribe();
  };
}

export function useNoticesLive(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    users += 1;
    stop ??= follow(queryClient);
    return () => {
      users -= 1;
      if (users === 0) {
        stop?.();
        stop = null;
      }
    };
  }, [queryClient]);
}
