import type { Party } from '@haversack/contracts';
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PartyFacts } from './party-facts';
import { PartyRoleBadge } from './party-role-badge';

/** spec/02 §2 Party list card. */
export function PartyCard({ party, onDelete }: { party: Party; onDelete: (party: Party) => void }) {
  return (
    <Card withBorder padding="lg" data-testid="party-card">
      <Stack gap="sm" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
            {party.name}
          </Title>
          {/* The badges keep their words; the name beside them wraps instead. */}
          <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
            {party.is_archived ? (
              <Badge color="gray" variant="outline">
                Archived
              </Badge>
            ) : null}
            <PartyRoleBadge party={party} />
          </Group>
        </Group>
        <Text size="sm" c="dimmed" lineClamp={2} mih="2.6em">
          {party.description || 'No description.'}
        </Text>
        <PartyFacts gameSystem={party.game_system} setting={party.setting} memberCount={party.member_count} />
        <Group gap="sm" mt="auto">
          <Button
            component={Link}
            to={`/parties/${party.id}`}
            size="sm"
            aria-label={`View Party ${party.name}`}
          >
            View Party
          </Button>
          {party.is_gm ? (
            <Button
              variant="light"
              color="red"
              size="sm"
              onClick={() => onDelete(party)}
              aria-label={`Delete ${party.name}`}
            >
              Delete
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Card>
  );
}
