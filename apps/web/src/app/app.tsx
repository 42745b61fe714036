import { createBrowserRouter, RouterProvider } from 'react-router';
import { setAppNavigator } from '../lib/app-navigation';
import { AppProviders } from './providers';
import { routes } from './routes';

const router = createBrowserRouter(routes);
setAppNavigator((to) => void router.navigate(to));

export function App() {
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
