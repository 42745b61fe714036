import type { AdminUserDetail } from '@haversack/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { AdminSessions } from './admin-sessions';

type Session = AdminUserDetail['sessions'][number];

const openSession: Session = {
  id: 's-1',
  created_at: '2026-11-20T09:00:00.000Z',
  last_used_at: '2026-11-26T04:00:00.000Z',
  ip_address: '2001:db8:85a3::8a2e:370:7334',
  user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  device: 'Firefox on Windows',
  revoked_at: null,
  revoked_reason: null,
};
const endedSession: Session = {
  id: 's-2',
  created_at: '2026-11-01T09:00:00.000Z',
  last_used_at: '2026-11-02T09:00:00.000Z',
  ip_address: null,
  user_agent: null,
  device: 'Unknown device',
  revoked_at: '2026-11-03T09:00:00.000Z',
  revoked_reason: 'signed_out_from_another_device',
};
const sessions = [openSession, endedSession];

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
    ).toEqual(['Device', 'Started', 'Last used', 'Address', 'State']);
    const rows = within(table).getAllByTestId('admin-session');
    expect(rows[0]).toHaveTextContent('2001:db8:85a3::8a2e:370:7334');
    expect(rows[0]).toHaveTextContent('Firefox on Windows');
    expect(rows[0]).toHaveTextContent('Open');
    expect(rows[0]).not.toHaveTextContent('Mozilla');
    expect(rows[1]).toHaveTextContent('—');
    expect(rows[1]).toHaveTextContent('Ended: signed out from another device');
  });

  it('gives each session a card of its own on a phone, nothing to scroll sideways', () => {
    setViewport(375, 812);
    renderWithProviders(<AdminSessions sessions={sessions} />);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const [open, ended] = within(screen.getByTestId('admin-session-cards')).getAllByTestId('admin-session');
    expect(open).toHaveTextContent('2001:db8:85a3::8a2e:370:7334');
    expect(open).toHaveTextContent('Firefox on Windows');
    expect(open).toHaveTextContent('Open');
    expect(open).toHaveTextContent(/^.*Started .+ · last used .+$/);
    expect(ended).toHaveTextContent('Unknown address');
    expect(ended).toHaveTextContent('Ended: signed out from another device');
  });

  it.each([
    ['logout', 'signed out'],
    ['revoked_by_admin', 'signed out by staff'],
    ['password_changed', 'password changed'],
    ['refresh_token_reuse', 'a stolen sign-in suspected'],
    ['some_new_reason', 'some new reason'],
  ])('says why a session ended in words: %s', (reason, words) => {
    setViewport(1280, 800);
    renderWithProviders(<AdminSessions sessions={[{ ...endedSession, revoked_reason: reason }]} />);
    expect(screen.getByTestId('admin-session')).toHaveTextContent(`Ended: ${words}`);
  });

  it('shows the newest 10, and the rest on Show all', async () => {
    setViewport(1280, 800);
    const many = Array.from({ length: 14 }, (_, i) => ({ ...openSession, id: `s-${i}` }));
    renderWithProviders(<AdminSessions sessions={many} />);
    expect(screen.getAllByTestId('admin-session')).toHaveLength(10);
    await userEvent.click(screen.getByRole('button', { name: 'Show all 14' }));
    expect(screen.getAllByTestId('admin-session')).toHaveLength(14);
    expect(screen.queryByRole('button', { name: /Show all/ })).not.toBeInTheDocument();
  });

  it('offers no Show all for 10 sessions or fewer', () => {
    renderWithProviders(<AdminSessions sessions={sessions} />);
    expect(screen.queryByRole('button', { name: /Show all/ })).not.toBeInTheDocument();
  });

  it('says so when the account never signed in', () => {
    renderWithProviders(<AdminSessions sessions={[]} />);
    expect(screen.getByText('Never signed in.')).toBeInTheDocument();
  });
});
