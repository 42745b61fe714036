import { Navigate } from 'react-router';
import { useShallow } from 'zustand/react/shallow';
import { FullPageLoader } from '../../components/loading';
import { useAuthStore } from '../../stores/auth-store';

export const initializingLabel = 'Initializing application...';

/** spec/01 §2: / goes to /dashboard when signed in, otherwise to /login. */
export function RootRedirect() {
  const { isAuthenticated, isInitializing } = useAuthStore(
    useShallow((state) => ({ isAuthenticated: state.isAuthenticated, isInitializing: state.isInitializing })),
  );
  if (isInitializing) return <FullPageLoader label={initializingLabel} />;
  return <Navigate to={isAuthenticated ? '/dashboard' : '/login'} replace />;
}
