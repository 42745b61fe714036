import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { PatronagePanel } from './patronage-panel';

const members = [
  {
    user_id: 'u-bard',
    username: 'bard',
    role: 'player',
    own_tier: 'tier_free',
    sponsored: false,
    patronage_id: null,
  },
  {
    user_id: 'u-rogue',
    username: 'rogue',
    role: 'player',
    own_tier: 'tier_free',
    sponsored: true,
    patronage_id: 'pat-1',
  },
];

function serve() {
  return mockFetch(({ url, init }) => {
    if (url.endsWith('/subscription/check_feature'))
      return success({ allowed: true, feature: 'patronage_system' });
    if (url.includes('/patronages/eligible/')) return success(members);
    if (url.endsWith('/patronages/pat-1') && init.method === 'DELETE')
      return new Response(null, { status: 204 });
    return success(null);
  });
}

describe('PatronagePanel', () => {
  it('names each member on their button, and asks before ending a sponsorship', async () => {
    const fetchMock = serve();
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <PatronagePanel partyId="party-1" /> }], '/');

    expect(await screen.findByRole('button', { name: 'Sponsor bard' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'End sponsorship of rogue' }));
    const dialog = await screen.findByRole('dialog', { name: 'End sponsorship' });
    expect(dialog).toHaveTextContent('rogue loses the plan you granted them in this party at once.');
    const deletes = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE');
    expect(deletes()).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'End sponsorship' }));
    await expect
      .poll(() => deletes().map(([url]) => String(url)))
      .toEqual([expect.stringMatching(/\/patronages\/pat-1$/)]);
  });
});
