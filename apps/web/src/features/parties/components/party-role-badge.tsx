import type { PartyRole } from '@haversack/contracts';
import { Badge } from '@mantine/core';

const roleColors: Record<PartyRole, string> = {
  gm: 'violet',
  manager: 'violet',
  player: 'violet',
  observer: 'violet',
};

/** spec/02 §2: a GM badge, or the capitalised role. */
export function PartyRoleBadge({ role }: { role: PartyRole | null }) {
  if (!role) return null;
  const label = role === 'gm' ? 'GM' : role.charAt(0).toUpperCase() + role.slice(1);
  return (
    <Badge color={roleColors[role]} variant="light" data-testid="party-role-badge">
      {label}
    </Badge>
  );
}
