import { useNavigate } from 'react-router';
import { signOut } from '../../lib/session';

/**
 * Sign Out as the header's account menu does it: the session ends, then the sign-in page. `before` runs
 * first, while the tokens still hold (the admin bar ends its admin session there).
 */
export function useSignOut(before?: () => Promise<void>) {
  const navigate = useNavigate();
  return async () => {
    await before?.();
    await signOut();
    navigate('/login', { replace: true });
  };
}
