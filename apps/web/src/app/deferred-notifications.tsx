import { type NotificationsProps, useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

// The toasts' component (transitions, portal, positions) is loaded with the first toast, not with every
// page: /login shows none until something happens (issue 13 §1). The store behind `notifications.show`
// is small and stays in the first load, so a toast shown before the component arrives waits in it.
const Notifications = lazy(() => import('./toasts-component'));

export function DeferredNotifications(props: NotificationsProps) {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <Notifications {...props} />
    </Suspense>
  ) : null;
}
