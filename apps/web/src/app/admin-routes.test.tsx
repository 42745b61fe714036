import { waitFor } from '@testing-library/react';
import { createMemoryRouter, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AdminNotFoundPage } from '../features/admin/pages/admin-not-found-page';
import { AnalyticsPage } from '../features/admin/pages/analytics-page';
import { routes } from './routes';

describe('admin routes', () => {
  // spec/01 §2's admin menu names /admin/sidekiq; the queue's own page is /admin/jobs.
  it('sends /admin/sidekiq to /admin/jobs, replacing it in the history', async () => {
    const router = createMemoryRouter(routes, { initialEntries: ['/admin/sidekiq'] });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/jobs'));
    expect(router.state.historyAction).toBe('REPLACE');
    router.dispose();
  });

  // React Router warns in the console ("Matched leaf route … does not have an element or Component") of a
  // leaf that draws nothing, as /admin/sidekiq did when opened directly.
  it('gives every leaf route something to render', () => {
    const empty: string[] = [];
    const walk = (list: RouteObject[], parent: string) => {
      for (const route of list) {
        const path = route.index ? `${parent} (index)` : `${parent}/${route.path ?? ''}`;
        if (route.children?.length) walk(route.children, path);
        else if (route.element === undefined && !route.Component && !route.lazy) empty.push(path);
      }
    };
    walk(routes, '');
    expect(empty).toEqual([]);
  });

  // Review: the menu's Reports opened a second copy of Analytics, headed "Analytics".
  it('opens a Reports page of its own at /admin/reports', async () => {
    const admin = routes[0]?.children?.find((route) => route.path === 'admin');
    const reports = admin?.children?.[0]?.children?.find((route) => route.path === 'reports');
    const lazy = reports?.lazy;
    if (typeof lazy !== 'function') throw new Error('no lazy /admin/reports route');
    const { Component } = await lazy();
    expect(Component).toBeDefined();
    expect(Component).not.toBe(AnalyticsPage);
  });

  it('is drawn inside the admin layout for any unknown /admin path', async () => {
    const admin = routes[0]?.children?.find((route) => route.path === 'admin');
    const layout = admin?.children?.[0];
    const fallback = layout?.children?.find((route) => route.path === '*');
    const lazy = fallback?.lazy;
    if (typeof lazy !== 'function') throw new Error('no lazy /admin/* route');
    expect((await lazy()).Component).toBe(AdminNotFoundPage);
  });
});
