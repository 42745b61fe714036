import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../../test/render';
import { AdminNotFoundPage } from './admin-not-found-page';

describe('AdminNotFoundPage', () => {
  it('says there is no such admin page, and leads back to the admin dashboard', () => {
    renderRoutes([{ path: '/admin/*', element: <AdminNotFoundPage /> }], '/admin/nonsense');
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('There is no admin page at /admin/nonsense.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the admin dashboard' })).toHaveAttribute('href', '/admin');
  });
});
