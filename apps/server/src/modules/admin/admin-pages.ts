/**
 * The admin area's pages as the web app routes them (apps/web/src/app/routes.tsx, under `admin`), for the
 * refused visits it reports. A page missing here is not lost: its reports count with the made-up paths.
 */
const adminPages = [
  '',
  'dashboard',
  'analytics',
  'audit',
  'users',
  'users/:id',
  'moderation',
  'financial',
  'bulk-operations',
  'communications',
  'system-health',
  'monitoring',
  'sidekiq',
  'jobs',
  'reports',
  'settings',
].map((page) => page.split('/').filter(Boolean));

/** Every path that is not one of the admin pages above. */
export const OTHER_ADMIN_PAGE = '/admin/*';

/**
 * The admin page a reported path shows (`/admin/users/:id` for `/admin/users/0b1c…?tab=2`), or
 * OTHER_ADMIN_PAGE. A bounded set: the caller writes the path, and a path of its own making per report
 * must not buy an audit entry per report (an outside review). Case and a trailing slash do not matter,
 * as they do not to the web app's router.
 */
export function adminPageOf(path: string): string {
  const pathname = path.split(/[?#]/, 1)[0] ?? '';
  const [first, ...rest] = pathname.toLowerCase().split('/').filter(Boolean);
  if (first !== 'admin') return OTHER_ADMIN_PAGE;
  const page = adminPages.find(
    (parts) =>
      parts.length === rest.length && parts.every((part, i) => part.startsWith(':') || part === rest[i]),
  );
  return page ? ['', 'admin', ...page].join('/') : OTHER_ADMIN_PAGE;
}
