import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { PartyDetailPage } from './party-detail-page';

const routes = [{ path: '/parties/:id', element: <PartyDetailPage /> }];

describe('PartyDetailPage', () => {
  it('says "Party Not Found" for an address whose id is not one, not a retry that cannot succeed', async () => {
    mockFetch(() =>
      failure(422, 'VALIDATION_ERROR', 'Validation failed', [{ field: 'id', message: 'Invalid UUID' }]),
    );
    renderRoutes(routes, '/parties/not-a-uuid');
    expect(await screen.findByRole('heading', { level: 1, name: 'Party Not Found' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try Again' })).not.toBeInTheDocument();
  });

  it('offers Try Again when the party could not be loaded for another reason', async () => {
    mockFetch(() => failure(500, 'INTERNAL_SERVER_ERROR', 'boom'));
    renderRoutes(routes, '/parties/00000000-0000-4000-8000-000000000000');
    expect(await screen.findByRole('button', { name: 'Try Again' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Party Not Found' })).not.toBeInTheDocument();
  }, 20_000);

  it('keeps the line breaks of the description in the header, as character notes keep theirs', async () => {
    const description = 'Line one\nLine two, with "quotes" and עברית';
    mockFetch(({ url }) => {
      const path = new URL(url, 'http://test').pathname;
      if (path === '/api/v1/parties/party-1') return success(buildParty({ description }));
      if (path === '/api/v1/parties/party-1/members') return success([]);
      return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 20) });
    });
    renderRoutes(routes, '/parties/party-1');
    const shown = await screen.findByText((_, element) => element?.textContent === description, {
      selector: 'p',
    });
    expect(shown).toHaveStyle({ whiteSpace: 'pre-wrap' });
  });

  it('selects the first and the last tab with Home and End, as the arrow keys select as they move', async () => {
    mockFetch(({ url }) => {
      const path = new URL(url, 'http://test').pathname;
      if (path === '/api/v1/parties/party-1') return success(buildParty());
      if (path === '/api/v1/parties/party-1/members') return success([]);
      // Whatever else a tab asks for: an empty list.
      return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 20) });
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/parties/party-1');
    const overview = await screen.findByRole('tab', { name: 'Overview' });
    overview.focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Members' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{End}');
    const activity = screen.getByRole('tab', { name: 'Activity' });
    expect(document.activeElement).toBe(activity);
    expect(activity).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Activity' })).toBeInTheDocument();
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(overview);
    expect(overview).toHaveAttribute('aria-selected', 'true');
  });

  it('keeps the chosen tab in the address, so that a reload opens it again', async () => {
    mockFetch(({ url }) => {
      const path = new URL(url, 'http://test').pathname;
      if (path === '/api/v1/parties/party-1') return success(buildParty());
      if (path === '/api/v1/parties/party-1/members') return success([]);
      return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 20) });
    });
    const user = userEvent.setup();
    const { router, unmount } = renderRoutes(routes, '/parties/party-1?welcome=false');
    await user.click(await screen.findByRole('tab', { name: 'Members' }));
    expect(router.state.location.search).toBe('?tab=members');
    await user.click(screen.getByRole('tab', { name: 'Overview' }));
    expect(router.state.location.search).toBe('');
    await user.click(screen.getByRole('tab', { name: 'Activity' }));
    const reloadedAt = `${router.state.location.pathname}${router.state.location.search}`;
    unmount();

    renderRoutes(routes, reloadedAt);
    expect(await screen.findByRole('tab', { name: 'Activity' })).toHaveAttribute('aria-selected', 'true');
  });
});
