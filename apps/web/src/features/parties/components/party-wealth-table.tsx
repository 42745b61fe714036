import type { CharacterWealth, Holding } from '@haversack/contracts';
import { Anchor, Box, Paper, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePhone } from '../../../lib/use-phone';
import { formatWeight } from '../../../lib/weight';
import { partyWealthQuery } from '../../characters/api/wealth-api';
import { purseLabel } from '../../characters/components/character-wealth';
import { LoadMeter } from '../../characters/components/load-meter';
import { HoldingWorth } from './holding-worth';
import { PartyWealthList } from './party-wealth-list';

/** Wide enough for the load bars; a narrower section shows the cards instead (WealthView). */
const TABLE_MIN_WIDTH = 640;

function WealthCells({ holding }: { holding: Holding }) {
  return (
    <>
      <Table.Td data-testid="wealth-row-purse">{purseLabel(holding.coins)}</Table.Td>
      <Table.Td>
        <HoldingWorth holding={holding} />
      </Table.Td>
    </>
  );
}

function CharacterRow({ character }: { character: CharacterWealth }) {
  return (
    <Table.Tr data-testid="wealth-row" data-character-id={character.character_id}>
      <Table.Th scope="row" fw={400}>
        <Anchor component={Link} to={`/characters/${character.character_id}`} fw={600} size="sm">
          {character.name}
        </Anchor>
        <Text size="xs" c="dimmed">
          {character.player_name ?? 'Unknown player'}
        </Text>
      </Table.Th>
      <WealthCells holding={character} />
      <Table.Td miw={200}>
        <LoadMeter load={character} name={character.name} />
      </Table.Td>
    </Table.Tr>
  );
}

/** A row for what is not a character's: the party stash, and the party's total. */
function HoldingRow({ label, holding, testId }: { label: string; holding: Holding; testId: string }) {
  return (
    <Table.Tr data-testid={testId}>
      <Table.Th scope="row">{label}</Table.Th>
      <WealthCells holding={holding} />
      <Table.Td>
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
          {formatWeight(holding.carried_weight)}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

interface WealthViewProps {
  characters: CharacterWealth[];
  stash: Holding | null;
  totals: Holding | null;
  /** The table's name, a few words: a whole sentence read as a name on every visit is too long. */
  caption: string;
  /** What the figures are, shown under the table and read as its description. */
  description: string;
}

function WealthTable({ characters, stash, totals, caption, description }: WealthViewProps) {
  const descriptionId = useId();
  return (
    <Stack gap={4}>
      {/* Focusable, so a keyboard user can scroll it sideways on a phone (WCAG 2.1.1). */}
      <Table.ScrollContainer
        minWidth={TABLE_MIN_WIDTH}
        type="native"
        tabIndex={0}
        role="region"
        aria-label={caption}
        aria-describedby={descriptionId}
      >
        <Table
          verticalSpacing="sm"
          striped
          highlightOnHover
          aria-describedby={descriptionId}
          data-testid="party-wealth-table"
        >
          <Table.Caption>
            <VisuallyHidden>{caption}</VisuallyHidden>
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Character</Table.Th>
              <Table.Th scope="col">Purse</Table.Th>
              <Table.Th scope="col">Wealth</Table.Th>
              <Table.Th scope="col">Load and encumbrance</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {characters.map((character) => (
              <CharacterRow key={character.character_id} character={character} />
            ))}
            {stash ? <HoldingRow label="Party stash" holding={stash} testId="wealth-stash-row" /> : null}
          </Table.Tbody>
          {totals ? (
            <Table.Tfoot>
              <HoldingRow label="Party total" holding={totals} testId="wealth-total-row" />
            </Table.Tfoot>
          ) : null}
        </Table>
      </Table.ScrollContainer>
      <Text id={descriptionId} size="sm" c="dimmed" ta="center">
        {description}
      </Text>
    </Stack>
  );
}

/**
 * A table where its four columns fit; cards on a phone (spec/02 §9's mobile) and wherever the section is
 * narrower than the table, as beside a tablet's sidebar, where a sideways-scrolling table hid its load
 * column with no sign of it. Until the section is measured, the table (a desktop's first paint).
 */
function WealthView(props: WealthViewProps) {
  const phone = usePhone();
  const { ref, width } = useElementSize();
  const narrow = phone || (width > 0 && width < TABLE_MIN_WIDTH);
  return <Box ref={ref}>{narrow ? <PartyWealthList {...props} /> : <WealthTable {...props} />}</Box>;
}

/**
 * Issue 12 §7 on the party overview. The GM sees one table of every character's purse, wealth, load and
 * encumbrance, the party stash and the party's total; a player sees the same for their own characters.
 */
export function PartyWealthSection({ partyId, isGm }: { partyId: string; isGm: boolean }) {
  const query = useQuery(partyWealthQuery(partyId));
  const headingId = useId();
  const title = isGm ? 'Party load and wealth' : 'Your purse and load';
  const rows = isGm
    ? (query.data?.characters ?? [])
    : (query.data?.characters ?? []).filter((c) => c.is_owner);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId} data-testid="party-wealth">
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {title}
        </Title>
        <RefreshFailedNote query={query} />
        {query.isPending ? (
          <Stack gap="xs" aria-busy="true" data-testid="party-wealth-loading">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={36} />
            ))}
          </Stack>
        ) : failedWithNothingToShow(query) ? (
          <ErrorPanel
            title="Unable to Load Party Wealth"
            message="Failed to count the party's coins and loads. Please try again."
            onRetry={() => void query.refetch()}
          />
        ) : isGm ? (
          query.data.characters.length === 0 && query.data.stash === null ? (
            <Text size="sm" c="dimmed" data-testid="party-wealth-empty">
              No characters in this party yet. Their purses and loads appear here.
            </Text>
          ) : (
            <WealthView
              characters={rows}
              stash={query.data.stash}
              totals={query.data.totals}
              caption="Every character's purse and load"
              description="Every character's coins, wealth in gp and load against their max weight."
            />
          )
        ) : rows.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="party-wealth-empty">
            You have no character in this party yet. Your characters' purses and loads appear here.
          </Text>
        ) : (
          <WealthView
            characters={rows}
            stash={null}
            totals={null}
            caption="Your characters' purses and loads"
            description="Your characters' coins, wealth in gp and load against their max weight."
          />
        )}
      </Stack>
    </Paper>
  );
}
