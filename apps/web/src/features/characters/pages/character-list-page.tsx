import { formatEnUs } from '@haversack/contracts';
import {
  Button,
  Group,
  Pagination,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { NumberField } from '../../../components/number-field';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { isApiError } from '../../../lib/http-client';
import { listReset } from '../../../lib/list-reset';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { PartyCardSkeletons } from '../../parties/components/party-card-skeletons';
import { type CharacterFilters, charactersListQuery } from '../api/characters-api';
import { CharacterCard } from '../components/character-card';

const levelOf = (value: string | number): number | null => (value === '' ? null : Number(value));

/** /characters: my characters with the filters of spec/02 §3 and paging. */
export function CharacterListPage() {
  usePageTitle('Characters');
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [race, setRace] = useState('');
  const [characterClass, setCharacterClass] = useState('');
  const [minLevel, setMinLevel] = useState<number | null>(null);
  const [maxLevel, setMaxLevel] = useState<number | null>(null);
  const typed = useMemo(
    () => ({ search, race, characterClass, minLevel, maxLevel }),
    [search, race, characterClass, minLevel, maxLevel],
  );
  const [debounced] = useDebouncedValue(typed, 300);
  const filters: CharacterFilters = { page, ...debounced };
  const filtersActive = Boolean(
    debounced.search.trim() ||
      debounced.race.trim() ||
      debounced.characterClass.trim() ||
      debounced.minLevel ||
      debounced.maxLevel,
  );
  const typedFilter = Boolean(search.trim() || race.trim() || characterClass.trim() || minLevel || maxLevel);
  const query = useQuery({ ...charactersListQuery(filters), placeholderData: keepPreviousData });
  // No character at all (nothing found with no filter, typed or sent): the filters have nothing to narrow,
  // and on a phone their five fields pushed "No characters yet" and Create Character below the first
  // screen. They come back with the first character; a filter that matches nothing keeps them in view.
  const noCharactersAtAll =
    query.data !== undefined &&
    !query.isPlaceholderData &&
    query.data.meta.total_count === 0 &&
    !filtersActive &&
    !typedFilter;
  const totalPages = query.data?.meta.total_pages ?? 1;
  const headingId = useId();
  // Review L1: a filter's result is said once the typing has settled and its answer is in; not on arrival,
  // where the focused heading and the list already say enough.
  const [filtered, setFiltered] = useState(false);
  const settled = typed === debounced && query.data !== undefined && !query.isPlaceholderData;
  const resetPage = () => {
    setPage(1);
    setFiltered(true);
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={4}>
          <Title order={1} id={headingId}>
            Characters
          </Title>
          <Text c="dimmed">Your characters and the parties they adventure with.</Text>
        </Stack>
        <Button component={Link} to="/characters/new">
          New Character
        </Button>
      </Group>

      {noCharactersAtAll ? null : (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="sm">
          <TextInput
            label="Search"
            placeholder="Name or notes"
            leftSection={<IconSearch size={16} aria-hidden="true" />}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              resetPage();
            }}
          />
          <TextInput
            label="Race"
            value={race}
            onChange={(event) => {
              setRace(event.currentTarget.value);
              resetPage();
            }}
          />
          <TextInput
            label="Class"
            value={characterClass}
            onChange={(event) => {
              setCharacterClass(event.currentTarget.value);
              resetPage();
            }}
          />
          <NumberField
            label="Min level"
            min={1}
            max={30}
            allowDecimal={false}
            value={minLevel ?? ''}
            onChange={(value) => {
              setMinLevel(levelOf(value));
              resetPage();
            }}
          />
          <NumberField
            label="Max level"
            min={1}
            max={30}
            allowDecimal={false}
            value={maxLevel ?? ''}
            onChange={(value) => {
              setMaxLevel(levelOf(value));
              resetPage();
            }}
          />
        </SimpleGrid>
      )}

      <VisuallyHidden role="status" data-testid="character-count">
        {filtered && settled ? countText(query.data.meta.total_count) : ''}
      </VisuallyHidden>

      <RefreshFailedNote query={query} />
      {query.isPending ? (
        <PartyCardSkeletons />
      ) : failedWithNothingToShow(query) ? (
        <ErrorPanel
          title="Failed to load characters"
          message={
            isApiError(query.error) && query.error.status === 401
              ? 'Authentication failed'
              : query.error.message
          }
          onRetry={() => void query.refetch()}
        />
      ) : query.data.characters.length === 0 ? (
        filtersActive ? (
          <EmptyState title="No characters found" message="No character matches these filters." />
        ) : (
          <EmptyState
            title="No characters yet"
            message="Create a character to start carrying gear and joining parties."
            action={
              <Button component={Link} to="/characters/new">
                Create Character
              </Button>
            }
          />
        )
      ) : (
        // A list named by the page's heading, a card a character: a screen reader says how many and steps
        // from one to the next.
        <SimpleGrid
          cols={{ base: 1, sm: 2, lg: 3 }}
          spacing="md"
          data-testid="character-grid"
          component="ul"
          aria-labelledby={headingId}
          style={listReset}
        >
          {query.data.characters.map((character) => (
            <CharacterCard key={character.id} character={character} />
          ))}
        </SimpleGrid>
      )}

      {totalPages > 1 ? (
        <Group justify="center">
          <Pagination total={totalPages} value={page} onChange={setPage} aria-label="Character pages" />
        </Group>
      ) : null}
    </Stack>
  );
}

/** What the filters found: the page's own empty title when nothing. */
function countText(count: number): string {
  if (count === 0) return 'No characters found';
  return `${formatEnUs(count)} ${count === 1 ? 'character' : 'characters'}`;
}
