import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { buildParty } from '../../../test/party-fixtures';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { PartyAdminActions } from './party-admin-actions';
import { PartyOverviewTab } from './party-overview-tab';

/** An archived party is read-only: what the server would refuse is not offered. */
describe('an archived party', () => {
  const live = buildParty({ is_gm: true, user_role: 'gm', join_code: 'ABCD2345', join_permission: 'full' });
  const archived = { ...live, is_archived: true };

  it('offers the GM no new join code, only Unarchive', () => {
    mockFetch(() => failure(404, 'RESOURCE_NOT_FOUND', 'not faked'));
    const { unmount } = renderWithProviders(<PartyAdminActions party={live} />);
    expect(screen.getByRole('button', { name: 'Generate New Code' })).toBeInTheDocument();
    unmount();
    renderWithProviders(<PartyAdminActions party={archived} />);
    expect(screen.queryByRole('button', { name: 'Generate New Code' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unarchive Party' })).toBeInTheDocument();
  });

  it('offers no new character and no join code on the overview', () => {
    mockFetch(() => failure(404, 'RESOURCE_NOT_FOUND', 'not faked'));
    const noop = () => undefined;
    const { unmount } = renderWithProviders(
      <PartyOverviewTab party={live} onShare={noop} onShowCharacters={noop} />,
    );
    expect(screen.getByRole('link', { name: 'Create a Character' })).toBeInTheDocument();
    expect(screen.getByText('ABCD2345')).toBeInTheDocument();
    unmount();
    renderWithProviders(<PartyOverviewTab party={archived} onShare={noop} onShowCharacters={noop} />);
    expect(screen.queryByRole('link', { name: 'Create a Character' })).not.toBeInTheDocument();
    expect(screen.queryByText('ABCD2345')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'View Characters' })).toBeInTheDocument();
  });
});

describe('archiving a party', () => {
  const live = buildParty({ is_gm: true, user_role: 'gm', name: 'Mistwood' });

  it('asks first, and sends nothing when the GM cancels', async () => {
    const fetches = mockFetch(() => success({ ...live, is_archived: true }));
    const user = userEvent.setup();
    renderWithProviders(<PartyAdminActions party={live} />);
    await user.click(screen.getByRole('button', { name: 'Archive Party' }));
    const dialog = await screen.findByRole('dialog', { name: 'Archive Party' });
    expect(dialog).toHaveTextContent('While Mistwood is archived, nobody can change its characters');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetches).not.toHaveBeenCalled();
  });

  it('archives once confirmed', async () => {
    const fetches = mockFetch(() => success({ ...live, is_archived: true }));
    const user = userEvent.setup();
    renderWithProviders(<PartyAdminActions party={live} />);
    await user.click(screen.getByRole('button', { name: 'Archive Party' }));
    const dialog = await screen.findByRole('dialog', { name: 'Archive Party' });
    await user.click(within(dialog).getByRole('button', { name: 'Archive Party' }));
    await waitFor(() => expect(fetches).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('unarchives without asking', async () => {
    const fetches = mockFetch(() => success(live));
    const user = userEvent.setup();
    renderWithProviders(<PartyAdminActions party={{ ...live, is_archived: true }} />);
    await user.click(screen.getByRole('button', { name: 'Unarchive Party' }));
    await waitFor(() => expect(fetches).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
