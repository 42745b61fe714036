import { Center, CloseButton, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useDeferredValue, useMemo, useState } from 'react';
import { foldForSearch } from '../lib/search-fold';

export interface LineFilterState<T> {
  /** What is typed in the field. */
  query: string;
  setQuery: (query: string) => void;
  /** The words the lines were last narrowed by (trimmed), '' when every line is shown. */
  term: string;
  isShown: (line: T) => boolean;
  shownCount: number;
}

/**
 * Which lines of a long editor (a shop's wares, a loot's lines: up to 200, each a card with its own fields)
 * hold the words typed in its filter. The lines the filter hides stay drawn, hidden, so that a change not
 * yet saved on one of them is still there when the filter is cleared.
 */
export function useLineFilter<T>(lines: readonly T[], nameOf: (line: T) => string): LineFilterState<T> {
  const [query, setQuery] = useState('');
  // Typing stays quick over 200 lines: React draws the narrowed list after the keystroke.
  const deferred = useDeferredValue(query);
  const term = foldForSearch(deferred.trim());
  const folded = useMemo(() => lines.map((line) => foldForSearch(nameOf(line))), [lines, nameOf]);
  const shown = useMemo(
    () => new Set(lines.filter((_, at) => term === '' || folded[at]?.includes(term))),
    [lines, folded, term],
  );
  return {
    query,
    setQuery,
    term: deferred.trim(),
    isShown: (line: T) => shown.has(line),
    shownCount: shown.size,
  };
}

/** "12 of 200 lines match": what a screen reader is told (politely) as the filter narrows the lines. */
export function matchingLinesText(shown: number, total: number): string {
  return `${shown} of ${total} ${total === 1 ? 'line' : 'lines'} ${shown === 1 ? 'matches' : 'match'}`;
}

/** The filter field above an editor's lines, and how many lines it leaves. */
export function LineFilter({
  filter,
  total,
}: {
  filter: Omit<LineFilterState<unknown>, 'isShown'>;
  total: number;
}) {
  return (
    <Stack gap={4}>
      <TextInput
        type="search"
        label="Find a line"
        placeholder="Item name"
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        value={filter.query}
        onChange={(event) => filter.setQuery(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && filter.query !== '') {
            event.preventDefault();
            filter.setQuery('');
          }
        }}
        rightSection={
          filter.query === '' ? null : (
            <CloseButton size="sm" aria-label="Clear the filter" onClick={() => filter.setQuery('')} />
          )
        }
      />
      {/* Always in the page, so that a screen reader hears each new count; empty while nothing is typed. */}
      <Text size="sm" c="dimmed" role="status" aria-live="polite">
        {filter.term === '' ? '' : matchingLinesText(filter.shownCount, total)}
      </Text>
    </Stack>
  );
}

/** What the editor shows instead of its list when no line holds the filter's words. */
export function NoMatchingLines({ term }: { term: string }) {
  return (
    <Center py="md">
      <Text c="dimmed" size="sm">
        No lines match “{term}”
      </Text>
    </Center>
  );
}
