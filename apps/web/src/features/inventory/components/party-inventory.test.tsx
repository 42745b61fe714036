import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, pageMeta } from '../../../test/party-fixtures';
import { buildContainer, renderWithProviders } from '../test/inventory-fixtures';
import { PartyInventory, partyCollaborationMissing } from './party-inventory';

const party = { id: '00000000-0000-4000-8000-0000000000aa', name: 'The Silver Lantern' };
const hero = buildCharacter({
  id: '00000000-0000-4000-8000-0000000000c1',
  is_owner: true,
  party_id: party.id,
});

/** The party's API at the network boundary; check_feature answers `allowed`. */
function partyServer(allowed: boolean) {
  return mockFetch(({ url, init }) => {
    const path = new URL(url, 'http://test').pathname.replace('/api/v1', '');
    if (path === '/characters') {
      return jsonResponse(200, { status: 'success', data: [hero], meta: pageMeta(1, 100) });
    }
    if (path === `/parties/${party.id}/containers`) {
      return success([buildContainer({ id: '00000000-0000-4000-8000-0000000000d1', name: 'Party Stash' })]);
    }
    if (path === `/characters/${hero.id}/containers`) return success([buildContainer({ name: 'Backpack' })]);
    if (init.method === 'POST' && path === '/subscription/check_feature') {
      return success({ allowed, feature: 'party_collaboration' });
    }
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${path}`);
  });
}

describe('PartyInventory', () => {
  it('says up front that changing the stash needs party collaboration, with the way to upgrade', async () => {
    const fetchMock = partyServer(false);
    renderWithProviders(<PartyInventory party={party} />);

    const prompt = await screen.findByTestId('upgrade-prompt');
    expect(prompt).toHaveTextContent('Party collaboration is not included in your plan');
    expect(prompt).toHaveTextContent(partyCollaborationMissing);
    expect(screen.getByRole('link', { name: 'See upgrade options' })).toHaveAttribute(
      'href',
      '/subscription/upgrade?feature=party_collaboration',
    );
    const check = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/subscription/check_feature'));
    expect(JSON.parse(String(check?.[1]?.body))).toEqual({
      feature: 'party_collaboration',
      party_id: party.id,
    });
  });

  it('shows no prompt when the plan in this party includes it', async () => {
    partyServer(true);
    renderWithProviders(<PartyInventory party={party} />);
    // spec/02 §2: the workspace is "Inventory Management", the party's name below it.
    const heading = await screen.findByRole('heading', { name: 'Inventory Management' });
    expect(heading).toHaveAccessibleDescription(party.name);
    expect(screen.queryByTestId('upgrade-prompt')).not.toBeInTheDocument();
  });

  it('offers to create a character in this party to someone without one', async () => {
    mockFetch(({ url }) =>
      new URL(url, 'http://test').pathname === '/api/v1/characters'
        ? jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 100) })
        : failure(404, 'RESOURCE_NOT_FOUND', 'none'),
    );
    renderWithProviders(<PartyInventory party={party} />);
    expect(await screen.findByTestId('party-inventory-unavailable')).toHaveTextContent(
      'You must have a character in the party',
    );
    expect(screen.getByRole('link', { name: 'Create a character in this party' })).toHaveAttribute(
      'href',
      `/characters/new?party_id=${party.id}`,
    );
  });
});
