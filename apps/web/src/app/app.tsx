import { createBrowserRouter, RouterProvider } from 'react-router';
import { setAppNavigator } from '../lib/app-navigation';
import { AppProviders } from './providers';
import { routes } from './routes';

type AppRouter = ReturnType<typeof createBrowserRouter>;

/**
 * The app's router, created when main.tsx asks, not as this module loads: creating it matches the URL and
 * starts loading the page's lazy modules, work that then runs as its own task instead of lengthening the
 * one that evaluates the app's code (issue 13 §1).
 */
export function createAppRouter(): AppRouter {
  const router = createBrowserRouter(routes);
  setAppNavigator((to) => void router.navigate(to));
  return router;
}

export function App({ router }: { router: AppRouter }) {
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
