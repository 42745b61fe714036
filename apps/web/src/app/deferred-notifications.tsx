import { type NotificationsProps, useNotifications } from '@mantine/notifications';
import { useState } from 'react';
import { deferredComponent } from '../components/deferred-component';

// The toasts' component (transitions, portal, positions) is loaded with the first toast, not with every
// page: /login shows none until something happens (issue 13 §1). The store behind `notifications.show`
// is small and stays in the first load, so a toast shown before the component arrives waits in it, also
// while the network is down (signed in, the component is loaded at the first idle moment: see MainLayout).
export const Notifications = deferredComponent<NotificationsProps>(() =>
  import('./toasts-component').then((m) => m.default),
);

export function DeferredNotifications(props: NotificationsProps) {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  return needed ? <Notifications {...props} /> : null;
}
