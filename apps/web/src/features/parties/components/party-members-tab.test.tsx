import type { PartyMember } from '@haversack/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { buildParty } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { PartyMembersTab } from './party-members-tab';

function buildMember(userId: string, username: string, role: PartyMember['role']): PartyMember {
  return {
    id: `member-${userId}`,
    user_id: userId,
    role,
    created_at: '2026-01-01T00:00:00.000Z',
    user: { username, email: null },
    character_details: [],
  };
}

const members = [
  buildMember('user-gm', 'gamemaster', 'gm'),
  buildMember('user-brom', 'Brom', 'player'),
  buildMember('user-pip', 'Pip', 'player'),
];

describe('PartyMembersTab', () => {
  it('names the member each Remove button removes', async () => {
    const user = userEvent.setup();
    mockFetch(({ url }) =>
      new URL(url, 'http://test').pathname === '/api/v1/parties/party-1/members'
        ? success(members)
        : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    const party = buildParty({ is_gm: true, user_role: 'gm', member_count: 3 });
    renderRoutes([{ path: '/', element: <PartyMembersTab party={party} /> }], '/');
    const removeBrom = await screen.findByRole('button', { name: 'Remove Brom' });
    // The spec's label stays on screen.
    expect(removeBrom).toHaveTextContent(/^Remove$/);
    expect(screen.getByRole('button', { name: 'Remove Pip' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove Pip' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove member' });
    expect(within(dialog).getByText(/^Remove Pip from The Copper Lanterns\?/)).toBeInTheDocument();
  });
});
