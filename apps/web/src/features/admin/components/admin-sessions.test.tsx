import type { AdminUserDetail } from '@haversack/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { AdminSessions } from './admin-sessions';

const sessions: AdminUserDetail['sessions'] = [
  {
    id: 's-1',
    created_at: '2026-11-20T09:00:00.000Z',
    last_used_at: '2026-11-26T04:00:00.000Z',
    ip_address: '2001:db8:85a3::8a2e:370:7334',
    user_agent: 'Firefox',
    revoked_at: null,
    revoked_reason: null,
  },
  {
    id: 's-2',
    created_at: '2026-11-01T09:00:00.000Z',
    last_used_at: '2026-11-02T09:00:00.000Z',
    ip_address: null,
    user_agent: null,
    revoked_at: '2026-11-03T09:00:00.000Z',
    revoked_reason: 'signed out',
  },
];

describe('AdminSessions', () => {
  restoreViewportAfterEach();

  it('lists the sessions in a table on a desktop', () => {
    setViewport(1280, 800);
    renderWithProviders(<AdminSessions sessions={sessions} />);
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Started', 'Last used', 'Address', 'State']);
    const rows = within(table).getAllByTestId('admin-session');
    expect(rows[0]).toHaveTextContent('2001:db8:85a3::8a2e:370:7334');
    expect(rows[0]).toHaveTextContent('Open');
    expect(rows[1]).toHaveTextContent('—');
    expect(rows[1]).toHaveTextContent('Ended (signed out)');
  });

  it('gives each session a card of its own on a phone, nothing to scroll sideways', () => {
    setViewport(375, 812);
    renderWithProviders(<AdminSessions sessions={sessions} />);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const [open, ended] = within(screen.getByTestId('admin-session-cards')).getAllByTestId('admin-session');
    expect(open).toHaveTextContent('2001:db8:85a3::8a2e:370:7334');
    expect(open).toHaveTextContent('Open');
    expect(open).toHaveTextContent(/^.*Started .+ · last used .+$/);
    expect(ended).toHaveTextContent('Unknown address');
    expect(ended).toHaveTextContent('Ended (signed out)');
  });

  it('says so when the account never signed in', () => {
    renderWithProviders(<AdminSessions sessions={[]} />);
    expect(screen.getByText('Never signed in.')).toBeInTheDocument();
  });
});
