import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { buildParty } from '../../../test/party-fixtures';
import { renderRoutes, withUnsavedChangesGuard } from '../../../test/render';
import { PartyEditPage } from './party-edit-page';

const party = buildParty({ id: 'party-1', name: 'The Lantern Bearers', is_gm: true, description: '' });

function serve() {
  return mockFetch(({ url, init }) => {
    const path = new URL(url, 'http://test').pathname;
    if (path === '/api/v1/parties/party-1' && init.method === 'PATCH')
      return success({ ...party, ...JSON.parse(String(init.body)).party });
    if (path === '/api/v1/parties/party-1') return success(party);
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${path}`);
  });
}

function renderPage() {
  return renderRoutes(
    withUnsavedChangesGuard([
      { path: '/parties/:id/edit', element: <PartyEditPage /> },
      { path: '/parties/:id', element: <p>Party page</p> },
    ]),
    '/parties/party-1/edit',
  );
}

describe('PartyEditPage', { timeout: 30_000 }, () => {
  it('sends only the fields it changed: another tab’s edit of the others stays', async () => {
    const fetchMock = serve();
    const user = userEvent.setup();
    renderPage();
    const setting = await screen.findByRole('textbox', { name: 'Setting' });
    await user.clear(setting);
    await user.type(setting, 'Sword Coast');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Party page')).toBeInTheDocument();
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({ party: { setting: 'Sword Coast' } });
  });

  it('asks before leaving with unsaved changes', async () => {
    serve();
    const user = userEvent.setup();
    const { router } = renderPage();
    await user.type(await screen.findByRole('textbox', { name: 'Description' }), 'A band of lamplighters');
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByRole('dialog', { name: 'Leave this page?' })).toHaveTextContent(
      'You have unsaved changes.',
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/parties/party-1/edit'));
  });

  it('says an archived party must be unarchived first, instead of a form the server would refuse', async () => {
    mockFetch(() => success({ ...party, is_archived: true }));
    renderPage();
    expect(await screen.findByText('Unarchive it to make changes.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Changes' })).not.toBeInTheDocument();
  });

  it('ends the form as a first load that failed does when a refresh finds the party deleted meanwhile', async () => {
    let deleted = false;
    mockFetch(() => (deleted ? failure(404, 'RESOURCE_NOT_FOUND', 'Party not found') : success(party)));
    const { queryClient } = renderPage();
    await screen.findByRole('button', { name: 'Save Changes' });
    deleted = true;
    await queryClient.refetchQueries({ queryKey: ['parties', 'detail', 'party-1'] });
    expect(await screen.findByText('Error loading party', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Changes' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('refresh-failed-note')).not.toBeInTheDocument();
  });
});
