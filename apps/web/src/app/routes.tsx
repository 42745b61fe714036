import { Navigate, Outlet, type RouteObject, redirect, replace, ScrollRestoration } from 'react-router';
import { FullPageLoader } from '../components/loading';
import { PageError } from '../components/page-error';
import { UnsavedChangesGuard } from '../components/unsaved-changes-guard';
import { LoginPage } from '../features/auth/pages/login-page';
import { AdminRoute } from './guards/admin-route';
import { GuestRoute } from './guards/guest-route';
import { ProtectedRoute } from './guards/protected-route';
import { initializingLabel, RootRedirect } from './guards/root-redirect';
import { AuthLayout } from './layouts/auth-layout';
import { lazyPage, lazyRoute } from './lazy-page';
import { NotFoundPage } from './pages/not-found-page';
import { RouterErrorPage } from './pages/router-error-page';
import { LazyQueryClientProvider } from './providers';
import { RouteFocus } from './route-focus';

/**
 * A path that only sends on to another: its loader redirects before anything draws. The element is there
 * for a page opened at that path: the first render matches the route before its loader has run, and React
 * Router warns in the console of a matched leaf with nothing to render.
 */
function redirectRoute(path: string, loader: () => Response, to: string): RouteObject {
  return { path, loader, element: <Navigate to={to} replace /> };
}

const systemHealthPage = () =>
  import('../features/admin/pages/system-health-page').then((m) => m.SystemHealthPage);

function adminDashboard(path: string | undefined): RouteObject {
  return lazyPage(path, 'Admin Dashboard', () =>
    import('../features/admin/pages/dashboard-page').then((m) => m.DashboardPage),
  );
}

function RootLayout() {
  return (
    <LazyQueryClientProvider>
      <Outlet />
      <ScrollRestoration />
      <RouteFocus />
      <UnsavedChangesGuard />
    </LazyQueryClientProvider>
  );
}

function InitialLoader() {
  return <FullPageLoader label={initializingLabel} />;
}

function AdminLoader() {
  return <FullPageLoader label="Loading admin panel..." />;
}

/** spec/01 §2 route table. */
export const routes: RouteObject[] = [
  {
    id: 'root',
    element: <RootLayout />,
    errorElement: <RouterErrorPage />,
    HydrateFallback: InitialLoader,
    children: [
      { index: true, element: <RootRedirect /> },

      // Public authentication layout, guest-only.
      {
        element: <GuestRoute />,
        children: [
          {
            element: <AuthLayout />,
            children: [
              // The sign-in page is where a phone arrives first: it comes with the first load (one request,
              // no round trip after the app starts; issue 13 §1). The other pages load on demand.
              { path: 'login', Component: LoginPage, errorElement: <PageError pageName="Sign in" /> },
              lazyPage('register', 'Create account', () =>
                import('../features/auth/pages/register-page').then((m) => m.RegisterPage),
              ),
              lazyPage('forgot-password', 'Forgot password', () =>
                import('../features/auth/pages/forgot-password-page').then((m) => m.ForgotPasswordPage),
              ),
            ],
          },
        ],
      },

      // Email verification uses the auth layout but is open to signed-in users too: the link is usually
      // followed right after registering, which signs the user in.
      {
        element: <AuthLayout />,
        children: [
          lazyPage('verify-email', 'Verify email', () =>
            import('../features/auth/pages/verify-email-page').then((m) => m.VerifyEmailPage),
          ),
          // spec/01 §2 lists the reset page as guest-only, but a reset link opened in a browser still signed
          // in (the link arrives while the phone is in use) went to /dashboard and the token was lost. The
          // reset ends every session of the account; the page then signs this browser out too.
          lazyPage('reset-password/:token', 'Reset password', () =>
            import('../features/auth/pages/reset-password-page').then((m) => m.ResetPasswordPage),
          ),
          // No token: the same screen shows "Invalid Reset Link".
          lazyPage('reset-password', 'Reset password', () =>
            import('../features/auth/pages/reset-password-page').then((m) => m.ResetPasswordPage),
          ),
          // The undo link of an email change: whoever follows it may be signed in or not.
          lazyPage('undo-email-change', 'Undo email change', () =>
            import('../features/auth/pages/undo-email-change-page').then((m) => m.UndoEmailChangePage),
          ),
          // A mass mail's unsubscribe link: it works signed in or not, and asks nothing TanStack Query keeps.
          lazyPage(
            'unsubscribe',
            'Unsubscribe',
            () => import('../features/preferences/pages/unsubscribe-page').then((m) => m.UnsubscribePage),
            { queries: false },
          ),
          // Issue 16: Discord sends people back here after signing in (signed out) and after linking
          // Discord from the profile (signed in), so the page is not guest-only.
          lazyPage('auth/discord/callback', 'Discord sign-in', () =>
            import('../features/auth/pages/discord-callback-page').then((m) => m.DiscordCallbackPage),
          ),
        ],
      },

      // Basic layout: no sign-in needed.
      {
        // Layouts other than the sign-in one load on demand, so /login carries only what /login needs. This
        // one asks the API nothing, nor does the landing page: a visitor's first load of /home carries
        // neither TanStack Query nor the API's contracts (its pages that ask the API wait for them).
        ...lazyRoute('Haversack', () => import('./layouts/basic-layout').then((m) => m.BasicLayout), {
          queries: false,
        }),
        children: [
          lazyPage('home', 'Home', () => import('../features/home/pages/home-page').then((m) => m.HomePage), {
            queries: false,
          }),
          lazyPage('about', 'About', () =>
            import('../features/about/pages/about-page').then((m) => m.AboutPage),
          ),
          lazyPage('diagnostics', 'Diagnostics', () =>
            import('../features/diagnostics/pages/diagnostics-page').then((m) => m.DiagnosticsPage),
          ),
          lazyPage('discord', 'Discord', () =>
            import('../features/discord/pages/discord-page').then((m) => m.DiscordPage),
          ),
          // Issue 16 §3: a shared inventory, loot or shop, read-only, signed in or not.
          lazyPage('discord/share/:shareCode', 'Shared', () =>
            import('../features/shares/pages/share-page').then((m) => m.SharePage),
          ),
          // The plans, public as GET /subscription/tiers is: a visitor reads the prices before making an
          // account; signed in, the layout draws the main one instead (BasicLayout).
          lazyPage('subscription/compare', 'Compare plans', () =>
            import('../features/subscription/pages/compare-plans-page').then((m) => m.ComparePlansPage),
          ),
        ],
      },

      // Main layout: sign-in required.
      {
        element: <ProtectedRoute />,
        children: [
          {
            ...lazyRoute('Haversack', () => import('./layouts/main-layout').then((m) => m.MainLayout)),
            children: [
              lazyPage('dashboard', 'Dashboard', () =>
                import('../features/dashboard/pages/dashboard-page').then((m) => m.DashboardPage),
              ),
              lazyPage('profile', 'Profile', () =>
                import('../features/profile/pages/profile-page').then((m) => m.ProfilePage),
              ),
              lazyPage('profile/preferences', 'Preferences', () =>
                import('../features/preferences/pages/preferences-page').then((m) => m.PreferencesPage),
              ),
              lazyPage('my-content', 'My Content', () =>
                import('../features/my-content/pages/my-content-page').then((m) => m.MyContentPage),
              ),
              lazyPage('notifications', 'Notifications', () =>
                import('../features/parties/pages/notifications-page').then((m) => m.NotificationsPage),
              ),

              lazyPage('characters', 'Characters', () =>
                import('../features/characters/pages/character-list-page').then((m) => m.CharacterListPage),
              ),
              lazyPage('characters/new', 'New character', () =>
                import('../features/characters/pages/character-create-page').then(
                  (m) => m.CharacterCreatePage,
                ),
              ),
              lazyPage('characters/:id', 'Character', () =>
                import('../features/characters/pages/character-detail-page').then(
                  (m) => m.CharacterDetailPage,
                ),
              ),
              lazyPage('characters/:id/edit', 'Edit character', () =>
                import('../features/characters/pages/character-edit-page').then((m) => m.CharacterEditPage),
              ),
              lazyPage('containers/:id', 'Inventory', () =>
                import('../features/inventory/pages/container-page').then((m) => m.ContainerPage),
              ),

              lazyPage('parties', 'Parties', () =>
                import('../features/parties/pages/party-list-page').then((m) => m.PartyListPage),
              ),
              lazyPage('parties/new', 'New party', () =>
                import('../features/parties/pages/party-create-page').then((m) => m.PartyCreatePage),
              ),
              lazyPage('parties/join', 'Join a party', () =>
                import('../features/parties/pages/party-join-page').then((m) => m.PartyJoinPage),
              ),
              lazyPage('parties/discover', 'Discover parties', () =>
                import('../features/parties/pages/party-discover-page').then((m) => m.PartyDiscoverPage),
              ),
              lazyPage('parties/:id', 'Party', () =>
                import('../features/parties/pages/party-detail-page').then((m) => m.PartyDetailPage),
              ),
              lazyPage('parties/:id/edit', 'Edit party', () =>
                import('../features/parties/pages/party-edit-page').then((m) => m.PartyEditPage),
              ),

              lazyPage('marketplace', 'Marketplace', () =>
                import('../features/marketplace/pages/marketplace-page').then((m) => m.MarketplacePage),
              ),

              lazyPage('items', 'Items', () =>
                import('../features/items/pages/item-list-page').then((m) => m.ItemListPage),
              ),
              lazyPage('items/new', 'New item', () =>
                import('../features/items/pages/item-create-page').then((m) => m.ItemCreatePage),
              ),
              lazyPage('items/templates/:id', 'Item template', () =>
                import('../features/items/pages/item-detail-page').then((m) => m.ItemDetailPage),
              ),
              lazyPage('items/:id', 'Item', () =>
                import('../features/items/pages/item-detail-page').then((m) => m.ItemDetailPage),
              ),
              lazyPage('items/:id/edit', 'Edit item', () =>
                import('../features/items/pages/item-edit-page').then((m) => m.ItemEditPage),
              ),

              lazyPage('shops', 'Shops', () =>
                import('../features/shops/pages/shop-templates-page').then((m) => m.ShopTemplatesPage),
              ),
              lazyPage('shops/new', 'New shop', () =>
                import('../features/shops/pages/shop-template-create-page').then(
                  (m) => m.ShopTemplateCreatePage,
                ),
              ),
              lazyPage('shops/templates', 'Shop templates', () =>
                import('../features/shops/pages/shop-templates-page').then(({ ShopTemplatesPage }) => {
                  const MyShopTemplatesPage = () => <ShopTemplatesPage mine />;
                  return MyShopTemplatesPage;
                }),
              ),
              lazyPage('shops/templates/new', 'New shop template', () =>
                import('../features/shops/pages/shop-template-create-page').then(
                  (m) => m.ShopTemplateCreatePage,
                ),
              ),
              lazyPage('shops/templates/:id', 'Shop template', () =>
                import('../features/shops/pages/shop-template-detail-page').then(
                  (m) => m.ShopTemplateDetailPage,
                ),
              ),
              lazyPage('shops/templates/:id/edit', 'Edit shop template', () =>
                import('../features/shops/pages/shop-template-edit-page').then((m) => m.ShopTemplateEditPage),
              ),
              lazyPage('shops/templates/:id/inventory', 'Shop template inventory', () =>
                import('../features/shops/pages/shop-template-inventory-page').then(
                  (m) => m.ShopTemplateInventoryPage,
                ),
              ),
              lazyPage('shops/instances', 'Shop instances', () =>
                import('../features/shops/pages/shop-instances-page').then((m) => m.ShopInstancesPage),
              ),
              lazyPage('shops/instances/:id', 'Shop', () =>
                import('../features/shops/pages/shop-instance-page').then((m) => m.ShopInstancePage),
              ),
              lazyPage('shops/:id', 'Shop', () =>
                import('../features/shops/pages/shop-template-detail-page').then(
                  (m) => m.ShopTemplateDetailPage,
                ),
              ),
              lazyPage('shops/:id/edit', 'Edit shop', () =>
                import('../features/shops/pages/shop-template-edit-page').then((m) => m.ShopTemplateEditPage),
              ),

              // `/shops` is a page of its own; `/loot`, typed by hand, goes where the sidebar's Loot does.
              redirectRoute('loot', () => redirect('/loot/templates'), '/loot/templates'),
              lazyPage('loot/templates', 'Loot templates', () =>
                import('../features/loot/pages/loot-templates-page').then((m) => m.LootTemplatesPage),
              ),
              lazyPage('loot/templates/new', 'New loot template', () =>
                import('../features/loot/pages/loot-template-create-page').then(
                  (m) => m.LootTemplateCreatePage,
                ),
              ),
              lazyPage('loot/templates/:id', 'Loot template', () =>
                import('../features/loot/pages/loot-template-detail-page').then(
                  (m) => m.LootTemplateDetailPage,
                ),
              ),
              lazyPage('loot/templates/:id/edit', 'Edit loot template', () =>
                import('../features/loot/pages/loot-template-edit-page').then((m) => m.LootTemplateEditPage),
              ),
              lazyPage('loot/templates/:id/inventory', 'Loot template inventory', () =>
                import('../features/loot/pages/loot-template-inventory-page').then(
                  (m) => m.LootTemplateInventoryPage,
                ),
              ),
              lazyPage('loot/instances/:id', 'Loot', () =>
                import('../features/loot/pages/loot-instance-page').then((m) => m.LootInstancePage),
              ),

              lazyPage('subscription', 'Subscription', () =>
                import('../features/subscription/pages/subscription-page').then((m) => m.SubscriptionPage),
              ),
              lazyPage('subscription/upgrade', 'Upgrade', () =>
                import('../features/subscription/pages/upgrade-page').then((m) => m.UpgradePage),
              ),
              lazyPage('subscription/success', 'Upgrade complete', () =>
                import('../features/subscription/pages/checkout-success-page').then(
                  (m) => m.CheckoutSuccessPage,
                ),
              ),
            ],
          },
        ],
      },

      // Admin area: signed in with the admin flag.
      {
        path: 'admin',
        element: <AdminRoute />,
        HydrateFallback: AdminLoader,
        children: [
          {
            ...lazyRoute('Admin', () => import('./layouts/admin-layout').then((m) => m.AdminLayout)),
            HydrateFallback: AdminLoader,
            children: [
              adminDashboard(undefined),
              adminDashboard('dashboard'),
              lazyPage('analytics', 'Admin Analytics', () =>
                import('../features/admin/pages/analytics-page').then((m) => m.AnalyticsPage),
              ),
              lazyPage('audit', 'Admin Audit Logs', () =>
                import('../features/admin/pages/audit-logs-page').then((m) => m.AuditLogsPage),
              ),
              lazyPage('users', 'Admin Users', () =>
                import('../features/admin/pages/admin-users-page').then((m) => m.AdminUsersPage),
              ),
              lazyPage('users/:id', 'Admin User', () =>
                import('../features/admin/pages/admin-user-detail-page').then((m) => m.AdminUserDetailPage),
              ),
              lazyPage('moderation', 'Admin Moderation', () =>
                import('../features/admin/pages/moderation-page').then((m) => m.ModerationPage),
              ),
              lazyPage('financial', 'Admin Financial', () =>
                import('../features/admin/pages/financial-page').then((m) => m.FinancialPage),
              ),
              lazyPage('bulk-operations', 'Admin Bulk Operations', () =>
                import('../features/admin/pages/bulk-operations-page').then((m) => m.BulkOperationsPage),
              ),
              lazyPage('communications', 'Admin Communications', () =>
                import('../features/admin/pages/communications-page').then((m) => m.CommunicationsPage),
              ),
              lazyPage('system-health', 'Admin System Health', systemHealthPage),
              lazyPage('monitoring', 'Admin Monitoring', systemHealthPage),
              // The spec's admin menu names /admin/sidekiq; the queue's page here is /admin/jobs.
              redirectRoute('sidekiq', () => replace('/admin/jobs'), '/admin/jobs'),
              lazyPage('jobs', 'Admin Background Jobs', () =>
                import('../features/admin/pages/background-jobs-page').then((m) => m.BackgroundJobsPage),
              ),
              // spec/01 §2 does not show the Reports screen: here it downloads the back office's figures as CSV.
              lazyPage('reports', 'Admin Reports', () =>
                import('../features/admin/pages/reports-page').then((m) => m.ReportsPage),
              ),
              lazyPage('settings', 'Admin Settings', () =>
                import('../features/admin/pages/admin-settings-page').then((m) => m.AdminSettingsPage),
              ),
              // An unknown /admin path keeps the admin layout and its menu (the app's 404 would leave it).
              lazyPage(
                '*',
                'Admin Page not found',
                () => import('../features/admin/pages/admin-not-found-page').then((m) => m.AdminNotFoundPage),
                { queries: false },
              ),
            ],
          },
        ],
      },

      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
