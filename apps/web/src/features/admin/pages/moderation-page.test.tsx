import type { AdminReport } from '@haversack/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { adminDateTime } from '../lib/format';
import { ModerationPage } from './moderation-page';

afterEach(() => useUiStore.setState({ toasts: [] }));

function buildReport(overrides: Partial<AdminReport> = {}): AdminReport {
  return {
    id: 'c0ffee00-0000-4000-8000-000000000001',
    target_type: 'item_template',
    target_id: 'c0ffee00-0000-4000-8000-0000000000aa',
    reason: 'The description insults other players.',
    status: 'open',
    created_at: '2026-11-20T10:00:00.000Z',
    reporter_email: 'reporter@example.com',
    target_name: 'Sword of Insults',
    target_excerpt: 'A blade that whispers rude things about your party.',
    target_owner_email: 'owner@example.com',
    target_public: true,
    open_reports_on_target: 1,
    resolved_at: null,
    ...overrides,
  };
}

function serve(reports: AdminReport[]) {
  return mockFetch(({ url, init }) => {
    if (url.startsWith('/api/v1/admin/reports?'))
      return jsonResponse(200, {
        status: 'success',
        data: reports,
        meta: { current_page: 1, total_pages: 1, total_count: reports.length, per_page: 20 },
      });
    if (init.method === 'POST' && url.endsWith('/unpublish'))
      return success({ ...reports[0], status: 'unpublished' });
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`);
  });
}

describe('ModerationPage', { timeout: 30_000 }, () => {
  it('when the page shown has emptied (its reports handled), says so and offers page 1, keeping the pager', async () => {
    // Page 2 held one report; another moderator handled it, and the list now has one page.
    mockFetch(({ url }) => {
      const page = new URL(url, 'http://test').searchParams.get('page') ?? '1';
      return page === '1'
        ? jsonResponse(200, {
            status: 'success',
            data: [buildReport()],
            meta: { current_page: 1, total_pages: 2, total_count: 21, per_page: 20 },
          })
        : jsonResponse(200, {
            status: 'success',
            data: [],
            meta: { current_page: 2, total_pages: 1, total_count: 20, per_page: 20 },
          });
    });
    const user = userEvent.setup();
    renderRoutes([{ path: '/admin/moderation', element: <ModerationPage /> }], '/admin/moderation');
    await user.click(await screen.findByRole('button', { name: 'Page 2' }, { timeout: 10_000 }));
    expect(await screen.findByRole('heading', { name: 'This page is past the end' })).toBeInTheDocument();
    expect(screen.queryByText('No Open Reports')).not.toBeInTheDocument();
    expect(screen.getByText('There is one page in this list.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Go to page 1' }));
    expect(await screen.findByTestId('report-card')).toBeInTheDocument();
  });

  it('keeps the chosen status in the address, so a reload or Back and Forward return to it', async () => {
    const fetchMock = serve([]);
    const reportCalls = () =>
      fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/admin/reports?'));
    const user = userEvent.setup();
    const { router } = renderRoutes(
      [{ path: '/admin/moderation', element: <ModerationPage /> }],
      '/admin/moderation?status=dismissed',
    );
    // Opened from the address (a reload): the Dismissed tab, not the first one.
    expect(await screen.findByRole('radio', { name: 'Dismissed' }, { timeout: 10_000 })).toBeChecked();
    await waitFor(() => expect(reportCalls().at(-1)).toContain('status=dismissed'), { timeout: 5_000 });

    await user.click(screen.getByRole('radio', { name: 'Unpublished' }));
    expect(router.state.location.search).toBe('?status=unpublished');
    await waitFor(() => expect(reportCalls().at(-1)).toContain('status=unpublished'), { timeout: 5_000 });

    await act(() => router.navigate(-1));
    expect(screen.getByRole('radio', { name: 'Dismissed' })).toBeChecked();
    await act(() => router.navigate(1));
    expect(screen.getByRole('radio', { name: 'Unpublished' })).toBeChecked();

    // The first tab, Open, is the address without a status.
    await user.click(screen.getByRole('radio', { name: 'Open' }));
    expect(router.state.location.search).toBe('');
    expect(await screen.findByText('No Open Reports')).toBeInTheDocument();
  });

  it('shows what was reported, a link to it while public, and why, before the buttons', async () => {
    serve([buildReport()]);
    renderRoutes([{ path: '/admin/moderation', element: <ModerationPage /> }], '/admin/moderation');
    const card = await screen.findByTestId('report-card', {}, { timeout: 10_000 });
    expect(within(card).getByText('A blade that whispers rude things about your party.')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: /Sword of Insults/ })).toHaveAttribute(
      'href',
      '/items/templates/c0ffee00-0000-4000-8000-0000000000aa',
    );
    const reason = within(card).getByText('The description insults other players.');
    const dismiss = within(card).getByRole('button', { name: 'Dismiss' });
    // In reading order the reason comes first: the moderator reads why before choosing what to do.
    expect(reason.compareDocumentPosition(dismiss) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('links nothing that is no longer public', async () => {
    serve([buildReport({ target_public: false })]);
    renderRoutes([{ path: '/admin/moderation', element: <ModerationPage /> }], '/admin/moderation');
    const card = await screen.findByTestId('report-card', {}, { timeout: 10_000 });
    expect(within(card).getByText('Sword of Insults')).toBeInTheDocument();
    expect(within(card).queryByRole('link')).not.toBeInTheDocument();
  });

  it('asks before unpublishing, and unpublishes only once confirmed', async () => {
    const fetchMock = serve([buildReport()]);
    renderRoutes([{ path: '/admin/moderation', element: <ModerationPage /> }], '/admin/moderation');
    const card = await screen.findByTestId('report-card', {}, { timeout: 10_000 });
    const unpublishes = () =>
      fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/unpublish')).length;

    await userEvent.click(within(card).getByRole('button', { name: 'Unpublish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unpublish this content?' });
    expect(unpublishes()).toBe(0);
    // The safe choice has the focus as the dialog opens.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(unpublishes()).toBe(0);

    await userEvent.click(within(card).getByRole('button', { name: 'Unpublish' }));
    const again = await screen.findByRole('dialog', { name: 'Unpublish this content?' });
    await userEvent.click(within(again).getByRole('button', { name: 'Unpublish' }));
    await waitFor(() => expect(unpublishes()).toBe(1));
    await waitFor(() =>
      expect(useUiStore.getState().toasts.map((t) => t.message)).toContain(
        'Content unpublished; its owner keeps it, private.',
      ),
    );
  });
});

// One date format across the admin pages: the audit log's.
it('dates a report as the other admin pages date things', async () => {
  serve([buildReport()]);
  renderRoutes([{ path: '/admin/moderation', element: <ModerationPage /> }], '/admin/moderation');
  const card = await screen.findByTestId('report-card', {}, { timeout: 10_000 });
  expect(card).toHaveTextContent(`on ${adminDateTime('2026-11-20T10:00:00.000Z')}`);
});

it('links the http(s) addresses in what was reported and why, opening apart', async () => {
  serve([
    buildReport({
      target_public: false,
      target_excerpt: 'Buy gold at https://gold.example/cheap now!',
      reason: 'Spam, see http://proof.example/1.',
    }),
  ]);
  renderRoutes([{ path: '/admin/moderation', element: <ModerationPage /> }], '/admin/moderation');
  const card = await screen.findByTestId('report-card', {}, { timeout: 10_000 });
  for (const href of ['https://gold.example/cheap', 'http://proof.example/1']) {
    const link = within(card).getByRole('link', { name: href });
    expect(link).toHaveAttribute('href', href);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  }
});
