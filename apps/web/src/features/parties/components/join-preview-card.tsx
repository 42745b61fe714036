import { type PartyPreview, partyMessages } from '@haversack/contracts';
import { Alert, Anchor, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PartyFacts } from './party-facts';

/** The live preview of the party a code (or a discovery card) points at. */
export function JoinPreviewCard({ preview }: { preview: PartyPreview }) {
  return (
    <Paper withBorder p="lg" data-testid="join-preview" aria-live="polite">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
            {preview.name}
          </Title>
          {preview.is_public ? (
            <Badge variant="light" color="violet">
              Public
            </Badge>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed">
          Game Master: {preview.gm_name ?? 'Unknown'}
        </Text>
        {preview.description ? (
          <Text size="sm" lineClamp={4}>
            {preview.description}
          </Text>
        ) : null}
        <PartyFacts
          gameSystem={preview.game_system}
          setting={preview.setting}
          memberCount={preview.member_count}
        />
        {preview.is_member ? (
          <Alert color="violet" variant="light">
            <Text size="sm">
              {partyMessages.alreadyMember}{' '}
              <Anchor component={Link} to={`/parties/${preview.id}`} size="sm">
                Open the party
              </Anchor>
            </Text>
          </Alert>
        ) : preview.join_permission === 'restricted' ? (
          <Alert color="yellow" variant="light">
            {partyMessages.restricted}
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}
