import type { Character } from '@haversack/contracts';
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export function CharacterCard({ character }: { character: Character }) {
  const summary = [character.race, character.character_class].filter(Boolean).join(' · ');
  return (
    <Card withBorder padding="lg" component="li" data-testid="character-card">
      <Stack gap="xs" h="100%">
        {/* A long name wraps in its own column; the badge keeps its width rather than shrinking to "L…". */}
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
          <Title order={2} size="h4" style={{ overflowWrap: 'anywhere', minWidth: 0, flex: 1 }}>
            {character.name}
          </Title>
          <Badge variant="light" style={{ flexShrink: 0, overflow: 'visible' }}>
            Level {character.level}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {summary || 'No race or class yet'}
        </Text>
        <Text size="sm">{character.party_name ? `Party: ${character.party_name}` : 'Not in a party'}</Text>
        <Group gap="sm" mt="auto">
          <Button
            component={Link}
            to={`/characters/${character.id}`}
            size="xs"
            aria-label={`View Details of ${character.name}`}
          >
            View Details
          </Button>
          {character.primary_container_id ? (
            <Button
              component={Link}
              to={`/containers/${character.primary_container_id}`}
              size="xs"
              variant="default"
              aria-label={`View Inventory of ${character.name}`}
            >
              View Inventory
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Card>
  );
}
