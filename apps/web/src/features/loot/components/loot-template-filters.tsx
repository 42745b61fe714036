import { lootSourceTypeNames, lootSourceTypes } from '@haversack/contracts';
import { Button, Group, Paper, Select, SimpleGrid, Switch, TagsInput, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { MoreFiltersButton, useFoldedFilters } from '../../../components/more-filters';
import type { LootSort, LootTemplateFilters } from '../api/loot-api';

export const lootSourceTypeOptions = lootSourceTypes.map((type) => ({
  value: type,
  label: lootSourceTypeNames[type],
}));

export const lootVisibilityOptions = [
  { value: 'private', label: 'Private' },
  { value: 'unlisted', label: 'Unlisted' },
  { value: 'public', label: 'Public' },
];

const sortOptions: { value: LootSort; label: string }[] = [
  { value: 'name', label: 'Name' },
  { value: 'value', label: 'Total value' },
  { value: 'created_at', label: 'Newest' },
  { value: 'updated_at', label: 'Recently updated' },
];

const isVisibility = (value: string | null): value is 'private' | 'unlisted' | 'public' =>
  value === 'private' || value === 'unlisted' || value === 'public';

/** spec/02 §7 loot template filters: search, source type, visibility, tags, only mine; sort and order. */
export function LootTemplateFiltersForm({
  filters,
  search,
  onSearchChange,
  onChange,
  onClear,
}: {
  filters: LootTemplateFilters;
  /** The search box's own text (debounced into `filters.search` by the page). */
  search: string;
  onSearchChange: (search: string) => void;
  onChange: (change: Partial<LootTemplateFilters>) => void;
  onClear: () => void;
}) {
  const fold = useFoldedFilters();
  const folded = fold.shown ? undefined : 'none';
  const activeCount = [
    filters.sourceType !== null,
    filters.visibility !== null,
    filters.tags.length > 0,
    filters.mine,
  ].filter(Boolean).length;
  return (
    <Paper withBorder p="md" component="section" aria-label="Loot template filters">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        <TextInput
          label="Search loot templates"
          placeholder="Search loot..."
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          value={search}
          onChange={(event) => onSearchChange(event.currentTarget.value)}
        />
        {fold.phone ? (
          <MoreFiltersButton unfolded={fold.unfolded} activeCount={activeCount} onToggle={fold.toggle} />
        ) : null}
        <Select
          label="Source type"
          display={folded}
          placeholder="All source types"
          data={lootSourceTypeOptions}
          value={filters.sourceType}
          onChange={(value) => onChange({ sourceType: lootSourceTypes.find((t) => t === value) ?? null })}
          clearable
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label="Visibility"
          display={folded}
          placeholder="Mine and public"
          data={lootVisibilityOptions}
          value={filters.visibility}
          onChange={(value) => onChange({ visibility: isVisibility(value) ? value : null })}
          clearable
          comboboxProps={{ withinPortal: true }}
        />
        <TagsInput
          label="Tags"
          display={folded}
          placeholder={filters.tags.length ? undefined : 'Type a tag, then Enter'}
          value={filters.tags}
          onChange={(tags) => onChange({ tags })}
          clearable
        />
        <Select
          label="Sort by"
          data={sortOptions}
          value={filters.sortBy}
          onChange={(value) => {
            const sortBy = sortOptions.find((o) => o.value === value)?.value;
            if (sortBy) onChange({ sortBy });
          }}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label="Order"
          display={folded}
          data={[
            { value: 'asc', label: 'Ascending' },
            { value: 'desc', label: 'Descending' },
          ]}
          value={filters.sortOrder}
          onChange={(value) => (value === 'asc' || value === 'desc') && onChange({ sortOrder: value })}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
      </SimpleGrid>
      <Group justify="space-between" mt="sm">
        <Switch
          display={folded}
          label="Only mine"
          checked={filters.mine}
          onChange={(event) => onChange({ mine: event.currentTarget.checked })}
        />
        <Button variant="subtle" size="xs" ml="auto" onClick={onClear}>
          Clear Filters
        </Button>
      </Group>
    </Paper>
  );
}
