import type { AuditLogEntry } from '@haversack/contracts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useGlobalStyles } from '../../../test/global-styles';
import { renderRoutes } from '../../../test/render';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { AuditTargetLabel } from './audit-target-label';

const entry: AuditLogEntry = {
  id: 'e1',
  actor_id: null,
  actor_email: 'mira@example.com',
  action: 'user_suspended',
  target_type: 'user',
  target_id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
  before: null,
  after: null,
  details: { email: 'bram@example.com' },
  ip_address: null,
  user_agent: null,
  created_at: '2026-03-01T10:00:00.000Z',
};

describe('AuditTargetLabel on a phone', () => {
  restoreViewportAfterEach();
  it('makes the link to the target’s admin page at least 24 px tall (screen sweep: 20 px)', () => {
    useGlobalStyles('Anchor');
    setViewport(375, 812);
    renderRoutes([{ path: '/admin/audit', element: <AuditTargetLabel entry={entry} /> }], '/admin/audit');
    expect(getComputedStyle(screen.getByRole('link', { name: 'User bram@example.com' })).minHeight).toBe(
      '24px',
    );
  });
});
