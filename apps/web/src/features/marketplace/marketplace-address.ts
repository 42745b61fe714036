import { isInvertedRange } from '../../lib/range';
import type { MarketplaceFilters } from '../items/api/item-templates-api';
import { rarities } from '../items/rarities';

/**
 * The marketplace's search lives in the page's address, so that Back after opening an item returns to the
 * same results, a reload keeps them and a link shares them. Anything the address holds that is not a
 * filter the page knows is left out, not an error.
 */
export const marketplaceSortOptions = [
  { value: 'relevance', label: 'Best match' },
  { value: 'name', label: 'Name (A to Z)' },
  { value: 'value-asc', label: 'Value: low to high' },
  { value: 'value-desc', label: 'Value: high to low' },
  { value: 'weight-asc', label: 'Weight: light first' },
  { value: 'weight-desc', label: 'Weight: heavy first' },
] as const;
export type MarketplaceSort = (typeof marketplaceSortOptions)[number]['value'];

/** What the person types: kept as typed (a number field holds '' or a number). */
export interface MarketplaceDraft {
  search: string;
  tags: string;
  minValue: number | string;
  maxValue: number | string;
  minWeight: number | string;
  maxWeight: number | string;
}

export interface MarketplaceAddress extends MarketplaceDraft {
  rarity: string | null;
  sort: MarketplaceSort;
  page: number;
}

const numberKeys = [
  ['minValue', 'min_value'],
  ['maxValue', 'max_value'],
  ['minWeight', 'min_weight'],
  ['maxWeight', 'max_weight'],
] as const;

/** The search's own bounds (GET search/items): beyond them it answers 422, so such a value is left out. */
const SEARCH_MAX_CHARS = 200;
const TAGS_MAX_CHARS = 1000;
const numberBounds = { minValue: 1e9, maxValue: 1e9, minWeight: 1e6, maxWeight: 1e6 } as const;

function readNumber(raw: string | null, max: number): number | string {
  if (raw === null || raw.trim() === '') return '';
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 && value <= max ? value : '';
}

export function readMarketplaceAddress(params: URLSearchParams): MarketplaceAddress {
  const sort = marketplaceSortOptions.find((option) => option.value === params.get('sort'))?.value;
  const rarity = params.get('rarity');
  const page = Number(params.get('page'));
  const address: MarketplaceAddress = {
    search: (params.get('q') ?? '').slice(0, SEARCH_MAX_CHARS),
    tags: (params.get('tags') ?? '').length > TAGS_MAX_CHARS ? '' : (params.get('tags') ?? ''),
    minValue: '',
    maxValue: '',
    minWeight: '',
    maxWeight: '',
    rarity: rarities.find((r) => r === rarity) ?? null,
    sort: sort ?? 'relevance',
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
  for (const [field, key] of numberKeys) address[field] = readNumber(params.get(key), numberBounds[field]);
  return address;
}

/** The address for `address`, without the defaults, so that a plain visit stays /marketplace. */
export function writeMarketplaceAddress(address: MarketplaceAddress): URLSearchParams {
  const params = new URLSearchParams();
  if (address.search.trim()) params.set('q', address.search.trim());
  if (address.tags.trim()) params.set('tags', address.tags.trim());
  for (const [field, key] of numberKeys) {
    const value = address[field];
    if (value !== '' && Number.isFinite(Number(value))) params.set(key, String(value));
  }
  if (address.rarity) params.set('rarity', address.rarity);
  if (address.sort !== 'relevance') params.set('sort', address.sort);
  if (address.page > 1) params.set('page', String(address.page));
  return params;
}

export function draftOf(address: MarketplaceAddress): MarketplaceDraft {
  const { search, tags, minValue, maxValue, minWeight, maxWeight } = address;
  return { search, tags, minValue, maxValue, minWeight, maxWeight };
}

const toNumber = (value: number | string): number | null =>
  value === '' || !Number.isFinite(Number(value)) ? null : Number(value);

/**
 * The search the address asks of GET search/items. A range whose max is below its min is left out (the Max
 * field says why) rather than asked for: it could only answer "No items found".
 */
export function filtersOf(address: MarketplaceAddress): MarketplaceFilters {
  const [sort, direction] = address.sort.split('-') as [
    NonNullable<MarketplaceFilters['sort']>,
    MarketplaceFilters['direction'],
  ];
  const values = isInvertedRange(address.minValue, address.maxValue);
  const weights = isInvertedRange(address.minWeight, address.maxWeight);
  return {
    search: address.search,
    tags: address.tags,
    minValue: values ? null : toNumber(address.minValue),
    maxValue: values ? null : toNumber(address.maxValue),
    minWeight: weights ? null : toNumber(address.minWeight),
    maxWeight: weights ? null : toNumber(address.maxWeight),
    page: address.page,
    ...(address.rarity ? { rarity: address.rarity } : {}),
    // "Best match" leaves the order to the server: by relevance with a search term, by name without.
    ...(sort === 'relevance' ? {} : { sort, ...(direction ? { direction } : {}) }),
  };
}
