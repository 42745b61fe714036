import { waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '../../../stores/auth-store';
import { buildUser, failure, mockFetch, success } from '../../../test/fixtures';
import { adminRequest } from './admin-request';

describe('adminRequest', () => {
  beforeEach(() => {
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser({ admin: true }) });
  });

  it('learns that the admin flag was taken away when an admin call is refused with 403', async () => {
    const fetchMock = mockFetch(({ url }) =>
      url.endsWith('/auth/me')
        ? success({ user: buildUser({ admin: false }) })
        : failure(403, 'FORBIDDEN', 'You do not have permission to perform this action.'),
    );
    await expect(adminRequest('/api/v1/admin/audit_logs')).rejects.toMatchObject({ status: 403 });
    await waitFor(() => expect(useAuthStore.getState().user?.admin).toBe(false));
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/v1/auth/me');
  });

  it('asks nothing more on another failure', async () => {
    const fetchMock = mockFetch(() => failure(422, 'VALIDATION_ERROR', 'Bad input'));
    await expect(adminRequest('/api/v1/admin/users?page=0')).rejects.toMatchObject({ status: 422 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(useAuthStore.getState().user?.admin).toBe(true);
  });
});
