import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes, withUnsavedChangesGuard } from '../../../test/render';
import { adminDateTime } from '../lib/format';
import { CommunicationsPage } from './communications-page';

// Mantine's autosizing Textarea listens for font loads; happy-dom has no document.fonts.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget() });
}

const routes = [{ path: '/admin/communications', element: <CommunicationsPage /> }];

const announcement = {
  id: 'ann-1',
  title: 'Downtime tonight',
  body: '',
  level: 'warning',
  starts_at: '2026-01-01T10:00:00.000Z',
  ends_at: null,
  created_at: '2026-01-01T09:00:00.000Z',
};

const operation = {
  id: 'op-1',
  kind: 'mass_mail',
  status: 'queued',
  total: 12,
  processed: 0,
  changed: 0,
  params: {},
  actor_email: 'boss@example.com',
  last_error: null,
  created_at: '2026-01-01T10:00:00.000Z',
  finished_at: null,
};

const callsTo = (fetchMock: ReturnType<typeof mockFetch>, path: string, method: string) =>
  fetchMock.mock.calls.filter(
    ([url, init]) => String(url).endsWith(path) && (init?.method ?? 'GET') === method,
  );

describe('CommunicationsPage', () => {
  it('asks before deleting an announcement, and deletes only on confirmation', async () => {
    const fetchMock = mockFetch(({ url, init }) => {
      if (url.endsWith('/admin/announcements/ann-1') && init.method === 'DELETE')
        return new Response(null, { status: 204 });
      return url.endsWith('/admin/announcements') ? success([announcement]) : success([]);
    });
    renderRoutes(routes, '/admin/communications');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Delete announcement Downtime tonight' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete Announcement' });
    expect(callsTo(fetchMock, '/admin/announcements/ann-1', 'DELETE')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, '/admin/announcements/ann-1', 'DELETE')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Delete announcement Downtime tonight' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete Announcement' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(callsTo(fetchMock, '/admin/announcements/ann-1', 'DELETE')).toHaveLength(1));
  });

  it('says of each announcement whether its banner shows now, later or no more', async () => {
    const hour = 3_600_000;
    const at = (offset: number) => new Date(Date.now() + offset).toISOString();
    mockFetch(({ url }) =>
      url.endsWith('/admin/announcements')
        ? success([
            { ...announcement, id: 'a', title: 'Later', starts_at: at(hour) },
            { ...announcement, id: 'b', title: 'Now', starts_at: at(-hour), ends_at: at(hour) },
            { ...announcement, id: 'c', title: 'Over', starts_at: at(-2 * hour), ends_at: at(-hour) },
          ])
        : success([]),
    );
    renderRoutes(routes, '/admin/communications');
    const rows = await screen.findAllByTestId('announcement-row');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('LaterScheduled'),
      expect.stringContaining('NowShowing'),
      expect.stringContaining('OverEnded'),
    ]);
  });

  it("shows the server's refusal of the end on the Ends field", async () => {
    mockFetch(({ url, init }) => {
      if (url.endsWith('/admin/announcements') && init.method === 'POST')
        return failure(422, 'VALIDATION_ERROR', 'Please check your input and try again', [
          { field: 'ends_at', message: 'The end has already passed: the banner would never show' },
        ]);
      return success([]);
    });
    renderRoutes(routes, '/admin/communications');
    await userEvent.type(await screen.findByRole('textbox', { name: /Title/ }), 'Old news');
    await userEvent.click(screen.getByRole('button', { name: 'Publish Announcement' }));
    const ends = await screen.findByLabelText('Ends (optional)');
    await waitFor(() => expect(ends).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('The end has already passed: the banner would never show')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('counts the recipients and sends the mail only once the count is confirmed', async () => {
    const fetchMock = mockFetch(({ url, init }) => {
      if (url.endsWith('/admin/mass_mails/preview')) return success({ count: 12 });
      if (url.endsWith('/admin/mass_mails') && init.method === 'POST') return success(operation, 202);
      return success([]);
    });
    renderRoutes(routes, '/admin/communications');
    await userEvent.click(await screen.findByRole('combobox', { name: 'Send to' }));
    await userEvent.click(screen.getByRole('option', { name: 'Hero plan' }));
    const form = screen.getByRole('heading', { name: 'Email users' }).closest('div') ?? document.body;
    await userEvent.type(within(form).getByRole('textbox', { name: /Subject/ }), 'News');
    await userEvent.type(within(form).getByRole('textbox', { name: /Message/ }), 'Hello heroes');
    await userEvent.click(screen.getByRole('button', { name: 'Send Email' }));

    const dialog = await screen.findByRole('dialog', { name: 'Send Email' });
    expect(dialog).toHaveTextContent(
      'This will email 12 users (Hero plan) with a confirmed address; unconfirmed addresses are left out.',
    );
    const preview = callsTo(fetchMock, '/admin/mass_mails/preview', 'POST')[0];
    expect(JSON.parse(String(preview?.[1]?.body))).toEqual({
      audience: 'tier_2',
      subject: 'News',
      body: 'Hello heroes',
    });
    expect(callsTo(fetchMock, '/admin/mass_mails', 'POST')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(callsTo(fetchMock, '/admin/mass_mails', 'POST')).toHaveLength(1));
  });

  it('leaves out who turned announcement emails off unless sent as a service notice, which it says', async () => {
    const fetchMock = mockFetch(({ url, init }) => {
      if (url.endsWith('/admin/mass_mails/preview')) return success({ count: 5 });
      if (url.endsWith('/admin/mass_mails') && init.method === 'POST')
        return success({ ...operation, params: { service_notice: true } }, 202);
      return success([]);
    });
    renderRoutes(routes, '/admin/communications');
    const form =
      (await screen.findByRole('heading', { name: 'Email users' })).closest('div') ?? document.body;
    await userEvent.type(within(form).getByRole('textbox', { name: /Subject/ }), 'New terms');
    await userEvent.type(within(form).getByRole('textbox', { name: /Message/ }), 'They change.');
    await userEvent.click(screen.getByRole('button', { name: 'Send Email' }));
    const ordinary = await screen.findByRole('dialog', { name: 'Send Email' });
    expect(ordinary).toHaveTextContent('Users who turned announcement emails off are left out too.');
    await userEvent.click(within(ordinary).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const notice = screen.getByRole('checkbox', { name: 'Service notice: send even to users who opted out' });
    expect(notice).not.toBeChecked();
    await userEvent.click(notice);
    await userEvent.click(screen.getByRole('button', { name: 'Send Email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send Email' });
    expect(dialog).toHaveTextContent(
      'As a service notice it also reaches users who turned announcement emails off.',
    );
    const previews = callsTo(fetchMock, '/admin/mass_mails/preview', 'POST');
    expect(JSON.parse(String(previews[0]?.[1]?.body))).toEqual({
      audience: 'all',
      subject: 'New terms',
      body: 'They change.',
    });
    expect(JSON.parse(String(previews[1]?.[1]?.body))).toEqual({
      audience: 'all',
      subject: 'New terms',
      body: 'They change.',
      service_notice: true,
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(callsTo(fetchMock, '/admin/mass_mails', 'POST')).toHaveLength(1));
    const sent = callsTo(fetchMock, '/admin/mass_mails', 'POST')[0];
    expect(JSON.parse(String(sent?.[1]?.body))).toMatchObject({ service_notice: true });
    // Sent: the form starts afresh, as an ordinary mail.
    await waitFor(() => expect(notice).not.toBeChecked());
  });

  it('shows the refusal of a mail already going out', async () => {
    mockFetch(({ url, init }) => {
      if (url.endsWith('/admin/mass_mails/preview')) return success({ count: 3 });
      if (url.endsWith('/admin/mass_mails') && init.method === 'POST')
        return failure(409, 'CONFLICT', 'The same operation is already running: wait for it to finish.');
      return success([]);
    });
    renderRoutes(routes, '/admin/communications');
    const form =
      (await screen.findByRole('heading', { name: 'Email users' })).closest('div') ?? document.body;
    await userEvent.type(within(form).getByRole('textbox', { name: /Subject/ }), 'News');
    await userEvent.type(within(form).getByRole('textbox', { name: /Message/ }), 'Hello');
    await userEvent.click(screen.getByRole('button', { name: 'Send Email' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Send Email' })).getByRole('button', {
        name: 'Send',
      }),
    );
    expect(
      await screen.findByText('The same operation is already running: wait for it to finish.'),
    ).toBeInTheDocument();
  });

  it.each([
    ['an announcement', /Title/],
    ['a mail', /Subject/],
  ])('asks before leaving %s being written', async (_, field) => {
    mockFetch(() => success([]));
    const { router } = renderRoutes(withUnsavedChangesGuard(routes), '/admin/communications');
    await userEvent.type(await screen.findByRole('textbox', { name: field }), 'Half a thought');
    await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByRole('dialog', { name: 'Leave this page?' })).toHaveTextContent(
      'You have unsaved changes.',
    );
    expect(router.state.location.pathname).toBe('/admin/communications');
  });

  it('empties the announcement form once published, level included, and then lets the page go', async () => {
    mockFetch(({ url, init }) =>
      url.endsWith('/admin/announcements') && init.method === 'POST'
        ? success(announcement, 201)
        : success([]),
    );
    const { router } = renderRoutes(withUnsavedChangesGuard(routes), '/admin/communications');
    const title = await screen.findByRole('textbox', { name: /Title/ });
    await userEvent.type(title, 'Downtime tonight');
    const level = screen.getByRole('combobox', { name: 'Level' });
    await userEvent.click(level);
    await userEvent.click(await screen.findByRole('option', { name: 'Warning' }));
    await userEvent.click(screen.getByRole('button', { name: 'Publish Announcement' }));
    await waitFor(() => expect(title).toHaveValue(''));
    expect(level).toHaveValue('Info');
    await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByText('Somewhere else')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/elsewhere');
  });
});

// One date format across the admin pages: the audit log's.
it('dates an announcement as the other admin pages date things', async () => {
  mockFetch(({ url }) =>
    url.endsWith('/admin/announcements')
      ? success([{ ...announcement, ends_at: '2026-01-02T10:00:00.000Z' }])
      : success([]),
  );
  renderRoutes(routes, '/admin/communications');
  expect(
    await screen.findByText(
      `${adminDateTime(announcement.starts_at)} – ${adminDateTime('2026-01-02T10:00:00.000Z')}`,
    ),
  ).toBeInTheDocument();
});

it('shows an announcement’s body, its http(s) addresses links that open apart', async () => {
  mockFetch(({ url }) =>
    url.endsWith('/admin/announcements')
      ? success([{ ...announcement, body: 'Details at https://status.example.com/today.' }])
      : success([]),
  );
  renderRoutes(routes, '/admin/communications');
  const row = await screen.findByTestId('announcement-row');
  expect(row).toHaveTextContent('Details at https://status.example.com/today.');
  const link = within(row).getByRole('link', { name: 'https://status.example.com/today' });
  expect(link).toHaveAttribute('href', 'https://status.example.com/today');
  expect(link).toHaveAttribute('target', '_blank');
  expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
});
