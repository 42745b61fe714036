import type { CharacterWealth, Holding } from '@haversack/contracts';
import { Anchor, Group, Paper, Stack, Text } from '@mantine/core';
import { type ReactNode, useId } from 'react';
import { Link } from 'react-router';
import { formatWeight } from '../../../lib/weight';
import { purseLabel } from '../../characters/components/character-wealth';
import { LoadMeter } from '../../characters/components/load-meter';
import { HoldingWorth } from './holding-worth';

/** One card: who (or what) on the left, its wealth on the right, then its purse and its load. */
function WealthCard({
  who,
  holding,
  load,
  testId,
  characterId,
}: {
  who: ReactNode;
  holding: Holding;
  load: ReactNode;
  testId: string;
  characterId?: string;
}) {
  return (
    <Paper component="li" withBorder p="sm" data-testid={testId} data-character-id={characterId}>
      <Stack gap={6}>
        {/* The worth goes under the name (right-aligned) once larger text leaves the name no room beside it. */}
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <div style={{ minWidth: 0, flex: '1 1 10em' }}>{who}</div>
          <div style={{ textAlign: 'right', marginLeft: 'auto' }}>
            <HoldingWorth holding={holding} />
          </div>
        </Group>
        <Text size="sm">
          <Text span size="xs" c="dimmed" tt="uppercase" fw={600} mr={6}>
            Purse
          </Text>
          <span data-testid="wealth-row-purse">{purseLabel(holding.coins)}</span>
        </Text>
        {load}
      </Stack>
    </Paper>
  );
}

function CarriedWeight({ holding }: { holding: Holding }) {
  return (
    <Text size="sm">
      <Text span size="xs" c="dimmed" tt="uppercase" fw={600} mr={6}>
        Weight
      </Text>
      {formatWeight(holding.carried_weight)}
    </Text>
  );
}

/**
 * The party table on a phone: a card per character, then the stash and the total, so the wealth and the
 * load are on screen without scrolling sideways. Same figures and test ids as the table.
 */
export function PartyWealthList({
  characters,
  stash,
  totals,
  caption,
  description,
}: {
  characters: CharacterWealth[];
  stash: Holding | null;
  totals: Holding | null;
  /** The list's name, a few words. */
  caption: string;
  /** What the figures are, shown above the list and read as its description. */
  description: string;
}) {
  const descriptionId = useId();
  return (
    <Stack gap="xs">
      <Text id={descriptionId} size="xs" c="dimmed">
        {description}
      </Text>
      <Stack
        component="ul"
        gap="xs"
        p={0}
        m={0}
        aria-label={caption}
        aria-describedby={descriptionId}
        data-testid="party-wealth-list"
      >
        {characters.map((character) => (
          <WealthCard
            key={character.character_id}
            testId="wealth-row"
            characterId={character.character_id}
            holding={character}
            who={
              <>
                <Anchor component={Link} to={`/characters/${character.character_id}`} fw={600} size="sm">
                  {character.name}
                </Anchor>
                <Text size="xs" c="dimmed" truncate>
                  {character.player_name ?? 'Unknown player'}
                </Text>
              </>
            }
            load={<LoadMeter load={character} name={character.name} />}
          />
        ))}
        {stash ? (
          <WealthCard
            testId="wealth-stash-row"
            holding={stash}
            who={
              <Text size="sm" fw={600}>
                Party stash
              </Text>
            }
            load={<CarriedWeight holding={stash} />}
          />
        ) : null}
        {totals ? (
          <WealthCard
            testId="wealth-total-row"
            holding={totals}
            who={
              <Text size="sm" fw={700}>
                Party total
              </Text>
            }
            load={<CarriedWeight holding={totals} />}
          />
        ) : null}
      </Stack>
    </Stack>
  );
}
