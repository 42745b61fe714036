import { Navigate, Outlet, useLocation } from 'react-router';
import { useShallow } from 'zustand/react/shallow';
import { FullPageLoader } from '../../components/loading';
import { loginUrlFor } from '../../lib/redirect';
import { useAuthStore } from '../../stores/auth-store';

export const checkingAuthLabel = 'Checking authentication...';

/**
 * spec/01 §2 protected-route guard: a loader while the session initialises; a signed-out visitor is sent
 * (replacing history) to /login with ?redirect= holding the original path and query string.
 */
export function ProtectedRoute() {
  const { isAuthenticated, isInitializing } = useAuthStore(
    useShallow((state) => ({ isAuthenticated: state.isAuthenticated, isInitializing: state.isInitializing })),
  );
  const location = useLocation();
  if (isInitializing) return <FullPageLoader label={checkingAuthLabel} />;
  if (!isAuthenticated)
    return <Navigate to={loginUrlFor(`${location.pathname}${location.search}`)} replace />;
  return <Outlet />;
}
