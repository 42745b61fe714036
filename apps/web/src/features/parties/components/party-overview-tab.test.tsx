import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { failure, mockFetch } from '../../../test/fixtures';
import { buildParty } from '../../../test/party-fixtures';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { PartyOverviewTab } from './party-overview-tab';

const noop = () => undefined;
const headings = (column: HTMLElement) =>
  within(column)
    .getAllByRole('region')
    .map((region) => region.getAttribute('aria-labelledby'))
    .map((id) => (id ? document.getElementById(id)?.textContent : null));

describe('PartyOverviewTab layout', () => {
  it("balances a GM's panels in two columns: the ways in with the members, patronage above the GM actions", () => {
    mockFetch(() => failure(404, 'RESOURCE_NOT_FOUND', 'not faked'));
    const party = buildParty({
      is_gm: true,
      is_member: true,
      user_role: 'gm',
      join_code: 'ABCD2345',
      join_permission: 'full',
    });
    renderWithProviders(<PartyOverviewTab party={party} onShare={noop} onShowCharacters={noop} />);
    expect(headings(screen.getByTestId('overview-column-first'))).toEqual([
      'Quick actions',
      'Invite with the join code',
      'Invite a player',
      'Members',
    ]);
    const second = headings(screen.getByTestId('overview-column-second'));
    expect(second.slice(1)).toEqual(['Party settings', 'Patronage', 'Game Master actions']);
  });
});
