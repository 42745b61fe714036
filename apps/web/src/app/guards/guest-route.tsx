import { Navigate, Outlet, useSearchParams } from 'react-router';
import { useShallow } from 'zustand/react/shallow';
import { FullPageLoader } from '../../components/loading';
import { afterSignInTarget } from '../../lib/session';
import { useAuthStore } from '../../stores/auth-store';
import { checkingAuthLabel } from './protected-route';

/**
 * spec/01 §2 guest-only guard: a signed-in user goes to /dashboard, or to the page that sent them to sign
 * in (?redirect=, same-site paths only), so signing in on /login?redirect=… lands where it should; a tab
 * that took up another account from another tab goes to /dashboard.
 */
export function GuestRoute() {
  const { isAuthenticated, isInitializing } = useAuthStore(
    useShallow((state) => ({ isAuthenticated: state.isAuthenticated, isInitializing: state.isInitializing })),
  );
  const [searchParams] = useSearchParams();
  if (isInitializing) return <FullPageLoader label={checkingAuthLabel} />;
  if (isAuthenticated) return <Navigate to={afterSignInTarget(searchParams.get('redirect'))} replace />;
  return <Outlet />;
}
