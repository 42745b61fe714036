import type { Party, PartyRole } from '@haversack/contracts';
import { Badge } from '@mantine/core';

const roleColors: Record<PartyRole, string> = {
  gm: 'violet',
  manager: 'violet',
  player: 'violet',
  observer: 'violet',
};

/**
 * spec/02 §2: a GM badge, or the capitalised role. A non-member's `user_role` is `observer` (spec/02 §3
 * default), so nobody looking at a public party they have not joined is labelled a member.
 */
export function PartyRoleBadge({ party }: { party: Pick<Party, 'user_role' | 'is_member'> }) {
  if (!party.is_member) return null;
  const role: PartyRole = party.user_role;
  const label = role === 'gm' ? 'GM' : role.charAt(0).toUpperCase() + role.slice(1);
  return (
    // Beside a long party name the badge keeps its whole word instead of shrinking to "PL…".
    <Badge color={roleColors[role]} variant="light" data-testid="party-role-badge" style={{ flexShrink: 0 }}>
      {label}
    </Badge>
  );
}
