import type { AuditLogEntry } from '@haversack/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../../test/render';
import { auditActionColor, auditActionLabel } from '../lib/audit-labels';
import { AuditLogEntryDetails } from './audit-log-entry-details';

const entry = (overrides: Partial<AuditLogEntry>): AuditLogEntry => ({
  id: '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9',
  actor_id: '7f0c2a5e-1b2c-4d3e-8f90-123456789abc',
  actor_email: 'mira@example.com',
  action: 'user_suspended',
  target_type: null,
  target_id: null,
  before: null,
  after: null,
  details: {},
  ip_address: '203.0.113.9',
  user_agent: 'Firefox',
  created_at: '2026-03-01T10:00:00.000Z',
  ...overrides,
});

const renderDetails = (shown: AuditLogEntry) =>
  renderRoutes([{ path: '/', element: <AuditLogEntryDetails entry={shown} onClose={() => {}} /> }], '/');

describe('refused admin sessions and acts in the audit log', () => {
  it('have readable names, in the red of refusals', () => {
    expect(auditActionLabel('admin_session_refused')).toBe('Refused admin session');
    expect(auditActionLabel('admin_action_refused')).toBe('Refused admin action');
    expect(auditActionColor('admin_session_refused')).toBe('red');
    expect(auditActionColor('admin_action_refused')).toBe('red');
  });

  it('say why a session was refused', async () => {
    renderDetails(
      entry({
        action: 'admin_session_refused',
        target_type: 'admin_session',
        target_id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
        details: { method: 'GET', path: '/api/v1/admin/users', reason: 'other_user', via: 'api' },
      }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Refused admin session by mira@example.com');
    expect(within(dialog).getByText('Why refused: another admin’s session')).toBeInTheDocument();
  });

  it('say what act was refused, and why', async () => {
    renderDetails(
      entry({
        action: 'admin_action_refused',
        target_type: 'user',
        target_id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
        details: { attempted: 'user_deleted', reason: 'target_is_admin' },
      }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Refused admin action by mira@example.com');
    expect(within(dialog).getByText('Attempted: delete the account')).toBeInTheDocument();
    expect(within(dialog).getByText('Why refused: the user is an admin')).toBeInTheDocument();
  });
});

describe('the entry dialog’s before and after', () => {
  it('wraps a long value inside its box instead of running past its right edge', async () => {
    // Review (content): a 300-letter suspension reason ran off the dialog. jsdom lays nothing out: the style.
    const reason = `Spam ${'R'.repeat(300)}`;
    renderDetails(entry({ before: { suspended_at: null }, after: { suspended_reason: reason } }));
    const dialog = await screen.findByRole('dialog');
    const after = within(dialog).getByText(new RegExp(`"suspended_reason": "${reason}"`));
    expect(after).toHaveStyle({ whiteSpace: 'pre-wrap' });
    expect(after.style.overflowWrap).toBe('anywhere');
  });
});
