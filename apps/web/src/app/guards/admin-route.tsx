import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useShallow } from 'zustand/react/shallow';
import { FullPageLoader } from '../../components/loading';
import { API_V1, apiRequest } from '../../lib/http-client';
import { loginUrlFor } from '../../lib/redirect';
import { useAuthStore } from '../../stores/auth-store';
import { checkingAuthLabel } from './protected-route';

/**
 * spec/01 §2 admin guard: signed-out visitors go to /login, signed-in users without the admin flag go to
 * /dashboard; spec/01 §6: the refused attempt is recorded as an audit entry.
 */
export function AdminRoute() {
  const { isAuthenticated, isInitializing, isAdmin } = useAuthStore(
    useShallow((state) => ({
      isAuthenticated: state.isAuthenticated,
      isInitializing: state.isInitializing,
      isAdmin: state.user?.admin === true,
    })),
  );
  const location = useLocation();
  if (isInitializing) return <FullPageLoader label={checkingAuthLabel} />;
  if (!isAuthenticated)
    return <Navigate to={loginUrlFor(`${location.pathname}${location.search}`)} replace />;
  if (!isAdmin) return <RefusedAdminAccess path={location.pathname} />;
  return <Outlet />;
}

function RefusedAdminAccess({ path }: { path: string }) {
  useEffect(() => {
    // Fire and forget: the audit entry must never block or alarm the user being turned away.
    apiRequest(`${API_V1}/admin/audit_logs`, {
      method: 'POST',
      body: { action: 'unauthorized_admin_access_attempt', path },
      toast: false,
    }).catch(() => undefined);
  }, [path]);
  return <Navigate to="/dashboard" replace />;
}
