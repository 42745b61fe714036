import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, mockFetch } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { AdminUserDetailPage } from './admin-user-detail-page';

afterEach(() => useUiStore.setState({ toasts: [] }));

describe('AdminUserDetailPage', { timeout: 30_000 }, () => {
  it.each([
    [
      'an unknown id',
      '0b0b0b0b-0000-4000-8000-000000000000',
      () => failure(404, 'RESOURCE_NOT_FOUND', 'User not found'),
    ],
    [
      'an id that is not one',
      'not-an-id',
      () =>
        failure(422, 'VALIDATION_ERROR', 'Please check your input and try again', [
          { field: 'id', message: 'id must be a UUID' },
        ]),
    ],
  ])('says User Not Found for %s, with the way back to Users', async (_, id, answer) => {
    mockFetch(answer);
    renderRoutes([{ path: '/admin/users/:id', element: <AdminUserDetailPage /> }], `/admin/users/${id}`);
    expect(
      await screen.findByRole('heading', { name: 'User Not Found' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Users' })).toHaveAttribute('href', '/admin/users');
    expect(screen.queryByRole('button', { name: 'Try Again' })).not.toBeInTheDocument();
  });
});
