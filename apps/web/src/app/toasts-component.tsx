// Loaded on demand by DeferredNotifications: importing the one component (not the package's namespace)
// lets the bundler leave Notifications, its transitions and portal out of the first load.
export { Notifications as default } from '@mantine/notifications';
