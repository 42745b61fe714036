import {
  popularLocations,
  type ShopType,
  shopLocationLabel,
  shopMinRatings,
  shopTags,
  shopTypeNames,
  shopTypes,
} from '@haversack/contracts';
import { Button, Group, MultiSelect, Paper, Select, SimpleGrid, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { MoreFiltersButton, useFoldedFilters } from '../../../components/more-filters';
import type { ShopSort, ShopTemplateFilters } from '../api/shops-api';

export const shopTypeOptions = shopTypes.map((type) => ({ value: type, label: shopTypeNames[type] }));

export const locationOptions = popularLocations.map((l) => ({ value: l, label: shopLocationLabel(l) }));

const sortOptions: { value: ShopSort; label: string }[] = [
  { value: 'name', label: 'Name' },
  { value: 'rating', label: 'Rating' },
  { value: 'popularity', label: 'Popularity' },
  { value: 'created_at', label: 'Newest' },
  { value: 'updated_at', label: 'Recently updated' },
];

/** spec/02 §2 shop filters: search, type, location, min rating, visibility, sort, order, tags. */
export function ShopTemplateFiltersForm({
  filters,
  search,
  onSearchChange,
  onChange,
  onClear,
}: {
  filters: ShopTemplateFilters;
  /** The search box's own text (debounced into `filters.search` by the page). */
  search: string;
  onSearchChange: (search: string) => void;
  onChange: (change: Partial<ShopTemplateFilters>) => void;
  onClear: () => void;
}) {
  const fold = useFoldedFilters();
  const folded = fold.shown ? undefined : 'none';
  const activeCount = [
    filters.shopType !== null,
    filters.location !== '',
    filters.minRating !== null,
    filters.visibility !== null,
    filters.tags.length > 0,
  ].filter(Boolean).length;
  return (
    <Paper withBorder p="md" component="section" aria-label="Shop filters">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
        <TextInput
          label="Search shops"
          placeholder="Search shops..."
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          value={search}
          onChange={(event) => onSearchChange(event.currentTarget.value)}
        />
        {fold.phone ? (
          <MoreFiltersButton unfolded={fold.unfolded} activeCount={activeCount} onToggle={fold.toggle} />
        ) : null}
        <Select
          label="Shop type"
          display={folded}
          placeholder="All types"
          data={shopTypeOptions}
          value={filters.shopType}
          onChange={(value) => onChange({ shopType: (value as ShopType | null) ?? null })}
          clearable
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label="Location"
          display={folded}
          placeholder="Anywhere"
          data={locationOptions}
          value={filters.location || null}
          onChange={(value) => onChange({ location: value ?? '' })}
          clearable
          searchable
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label="Minimum rating"
          display={folded}
          placeholder="Any rating"
          data={shopMinRatings.map((r) => ({ value: String(r), label: `${r.toFixed(1)}+ stars` }))}
          value={filters.minRating === null ? null : String(filters.minRating)}
          onChange={(value) => onChange({ minRating: value === null ? null : Number(value) })}
          clearable
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label="Visibility"
          display={folded}
          placeholder="Mine and public"
          data={[
            { value: 'public', label: 'Public' },
            { value: 'unlisted', label: 'Unlisted' },
          ]}
          value={filters.visibility}
          onChange={(value) =>
            onChange({ visibility: value === 'public' || value === 'unlisted' ? value : null })
          }
          clearable
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label="Sort by"
          data={sortOptions}
          value={filters.sortBy}
          onChange={(value) => value && onChange({ sortBy: value as ShopSort })}
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
        <MultiSelect
          label="Tags"
          display={folded}
          placeholder={filters.tags.length ? undefined : 'Any tag'}
          data={[...shopTags]}
          value={filters.tags}
          onChange={(tags) => onChange({ tags })}
          clearable
          comboboxProps={{ withinPortal: true }}
        />
      </SimpleGrid>
      <Group justify="flex-end" mt="sm">
        <Button variant="subtle" size="xs" onClick={onClear}>
          Clear Filters
        </Button>
      </Group>
    </Paper>
  );
}
