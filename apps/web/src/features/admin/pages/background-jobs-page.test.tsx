import type { AdminJob } from '@haversack/contracts';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { BackgroundJobsPage } from './background-jobs-page';

const routes = [{ path: '/admin/jobs', element: <BackgroundJobsPage /> }];

function buildJob(overrides: Partial<AdminJob> = {}): AdminJob {
  return {
    id: '7d1f2a34-0000-4000-8000-000000000001',
    kind: 'admin_operation',
    key: 'admin-operation:42',
    run_at: '2026-11-23T20:00:00.000Z',
    attempts: 3,
    last_error: 'SMTP refused the message',
    created_at: '2026-11-23T18:00:00.000Z',
    ...overrides,
  };
}

const listPage = (jobs: AdminJob[]) =>
  jsonResponse(200, {
    status: 'success',
    data: jobs,
    meta: { current_page: 1, per_page: 25, total_count: jobs.length, total_pages: 1 },
  });

const listCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([url]) => String(url).includes('/admin/jobs?'));

describe('BackgroundJobsPage', { timeout: 30_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('when the page shown has emptied (its jobs retried), says so and offers page 1, keeping the pager', async () => {
    mockFetch(({ url }) => {
      const page = new URL(url, 'http://test').searchParams.get('page') ?? '1';
      return page === '1'
        ? jsonResponse(200, {
            status: 'success',
            data: [buildJob()],
            meta: { current_page: 1, per_page: 25, total_count: 26, total_pages: 2 },
          })
        : jsonResponse(200, {
            status: 'success',
            data: [],
            meta: { current_page: 2, per_page: 25, total_count: 25, total_pages: 1 },
          });
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/jobs');
    await user.click(await screen.findByRole('button', { name: 'Page 2' }, { timeout: 10_000 }));
    expect(await screen.findByRole('heading', { name: 'This page is past the end' })).toBeInTheDocument();
    expect(screen.queryByText('No Jobs')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Go to page 1' }));
    expect(await screen.findByText('SMTP refused the message')).toBeInTheDocument();
  });

  it('shows a loading state while the jobs load', async () => {
    mockFetch(() => new Promise<Response>(() => undefined));
    renderRoutes(routes, '/admin/jobs');
    expect(await screen.findByLabelText('Loading jobs')).toHaveAttribute('aria-busy', 'true');
  });

  it('lists failed jobs in a table and asks for another status when chosen', async () => {
    const fetchMock = mockFetch(({ url }) =>
      url.includes('status=failed') ? listPage([buildJob()]) : listPage([]),
    );
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/jobs');
    const table = await screen.findByTestId('jobs-table');
    const row = within(table).getByTestId('job-row');
    expect(within(row).getByText('admin_operation')).toBeInTheDocument();
    expect(within(row).getByText('admin-operation:42')).toBeInTheDocument();
    expect(within(row).getByText('3')).toBeInTheDocument();
    expect(within(row).getByText('SMTP refused the message')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Scheduled' }));
    const empty = await screen.findByTestId('empty-state');
    expect(within(empty).getByText('No job is scheduled for later.')).toBeInTheDocument();
    expect(String(listCalls(fetchMock).at(-1)?.[0])).toContain('status=scheduled');
  });

  it('keeps the chosen status in the address, so a reload or Back and Forward return to it', async () => {
    const fetchMock = mockFetch(({ url }) =>
      url.includes('status=failed') ? listPage([buildJob()]) : listPage([]),
    );
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/admin/jobs?status=queued');
    // Opened from the address (a reload): the Queued tab, not the first one.
    expect(await screen.findByRole('radio', { name: 'Queued' }, { timeout: 10_000 })).toBeChecked();
    expect(await screen.findByText('No job is waiting to run right now.')).toBeInTheDocument();
    expect(String(listCalls(fetchMock).at(-1)?.[0])).toContain('status=queued');

    await user.click(screen.getByRole('radio', { name: 'Scheduled' }));
    expect(router.state.location.search).toBe('?status=scheduled');
    expect(await screen.findByText('No job is scheduled for later.')).toBeInTheDocument();

    await act(() => router.navigate(-1));
    expect(screen.getByRole('radio', { name: 'Queued' })).toBeChecked();
    expect(await screen.findByText('No job is waiting to run right now.')).toBeInTheDocument();
    await act(() => router.navigate(1));
    expect(screen.getByRole('radio', { name: 'Scheduled' })).toBeChecked();

    // The first tab, Failed, is the address without a status.
    await user.click(screen.getByRole('radio', { name: 'Failed' }));
    expect(router.state.location.search).toBe('');
    expect(await screen.findByText('SMTP refused the message')).toBeInTheDocument();
  });

  it('retries a job and asks for the list again', async () => {
    const job = buildJob();
    const fetchMock = mockFetch(({ init }) => {
      if (init.method === 'POST') return success({ ...job, run_at: '2026-11-23T19:30:00.000Z' });
      return listPage([job]);
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/jobs');
    await screen.findByTestId('jobs-table');
    const before = listCalls(fetchMock).length;
    await user.click(screen.getByRole('button', { name: 'Retry admin_operation admin-operation:42' }));
    await vi.waitFor(() => expect(listCalls(fetchMock).length).toBeGreaterThan(before));
    const retry = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(String(retry?.[0])).toContain(`/admin/jobs/${job.id}/retry`);
  });

  it('says it could not load, and Try Again asks again', async () => {
    let calls = 0;
    mockFetch(() => {
      calls += 1;
      return calls <= 2 ? failure(500, 'INTERNAL_SERVER_ERROR', 'boom') : listPage([buildJob()]);
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/jobs');
    const panel = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(within(panel).getByText('Failed to Load Jobs')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: /try again/i }));
    expect(await screen.findByTestId('jobs-table')).toBeInTheDocument();
  });

  it('shows a card list on a phone', async () => {
    vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }));
    mockFetch(() => listPage([buildJob()]));
    renderRoutes(routes, '/admin/jobs');
    const cards = await screen.findByTestId('job-cards');
    expect(within(cards).getByText('admin-operation:42')).toBeInTheDocument();
    expect(within(cards).getByRole('button', { name: /Retry/ })).toBeInTheDocument();
    expect(screen.queryByTestId('jobs-table')).not.toBeInTheDocument();
  });
});
