import { waitFor } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from './routes';

describe('admin routes', () => {
  // spec/01 §2's admin menu names /admin/sidekiq; the queue's own page is /admin/jobs.
  it('sends /admin/sidekiq to /admin/jobs, replacing it in the history', async () => {
    const router = createMemoryRouter(routes, { initialEntries: ['/admin/sidekiq'] });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/jobs'));
    expect(router.state.historyAction).toBe('REPLACE');
    router.dispose();
  });
});
