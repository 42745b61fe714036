import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildParty } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { PartyRoleBadge } from './party-role-badge';

const show = (party: ReturnType<typeof buildParty>) =>
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <div>
            {party.name} <PartyRoleBadge party={party} />
          </div>
        ),
      },
    ],
    '/',
  );

describe('PartyRoleBadge', () => {
  it('labels a member by role, GM as GM', async () => {
    show(buildParty({ user_role: 'gm', is_gm: true }));
    expect(await screen.findByTestId('party-role-badge')).toHaveTextContent('GM');
  });

  it('shows nothing for a non-member, whose user_role is the spec default observer (issue 14)', async () => {
    show(buildParty({ user_role: 'observer', is_member: false }));
    expect(await screen.findByText(/The Copper Lanterns/)).toBeInTheDocument();
    expect(screen.queryByTestId('party-role-badge')).not.toBeInTheDocument();
  });
});
