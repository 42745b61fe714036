import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { AdminSettingsPage } from './admin-settings-page';

const routes = [{ path: '/admin/settings', element: <AdminSettingsPage /> }];

describe('AdminSettingsPage', () => {
  it('asks before turning maintenance mode on, and saves only on confirmation', async () => {
    const saved: unknown[] = [];
    mockFetch(({ url, init }) => {
      if (url.endsWith('/admin/settings') && init.method === 'PUT') {
        const body = JSON.parse(String(init.body)) as { settings: Record<string, boolean> };
        saved.push(body.settings);
        return success({ maintenance_mode: true, registration_open: true, ...body.settings });
      }
      return success({ maintenance_mode: false, registration_open: true });
    });
    renderRoutes(routes, '/admin/settings');
    await userEvent.click(await screen.findByRole('switch', { name: /Maintenance mode/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn On Maintenance Mode' });
    expect(saved).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(saved).toEqual([]);
    expect(screen.getByRole('switch', { name: /Maintenance mode/ })).not.toBeChecked();

    await userEvent.click(screen.getByRole('switch', { name: /Maintenance mode/ }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Turn On Maintenance Mode' })).getByRole('button', {
        name: 'Turn On',
      }),
    );
    await waitFor(() => expect(saved).toEqual([{ maintenance_mode: true }]));
    await waitFor(() => expect(screen.getByRole('switch', { name: /Maintenance mode/ })).toBeChecked());
    // Turning it off again is not asked.
    await userEvent.click(screen.getByRole('switch', { name: /Maintenance mode/ }));
    await waitFor(() => expect(saved).toEqual([{ maintenance_mode: true }, { maintenance_mode: false }]));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
