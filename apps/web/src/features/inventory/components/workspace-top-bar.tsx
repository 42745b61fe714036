import {
  ActionIcon,
  Button,
  CloseButton,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useHotkeys, useId } from '@mantine/hooks';
import { IconArrowLeft, IconPlus, IconSearch } from '@tabler/icons-react';
import { type ReactNode, type Ref, useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { NumberField } from '../../../components/number-field';
import { isInvertedRange, shortRangeMessage } from '../../../lib/range';
import type { ItemFilters } from '../api/inventory-api';
import type { LayoutMode, ViewMode } from '../workspace-types';

/** spec/02 §7 container items: the rarity filter's choices (the SRD's rarities). */
export const rarities = ['common', 'uncommon', 'rare', 'very rare', 'legendary', 'artifact'] as const;

const rarityOptions = rarities.map((value) => ({
  value,
  label: value.charAt(0).toUpperCase() + value.slice(1),
}));

function toGp(value: number | string): number | null {
  if (value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/**
 * Under the value range while one is set: an unpriced item (the SRD's magic items) has no value to compare,
 * so the server leaves it out, and a Bag of Holding would otherwise seem to be missing.
 */
export const unpricedOutOfRangeHint = 'Unpriced items are left out when a value range is set.';

/** spec/02 §2: the inventory screen's title; whose inventory it is shows below it. */
export const workspaceTitle = 'Inventory Management';

export interface WorkspaceTopBarProps {
  /** Whose inventory: a character's or a party's name, the title's subtitle. */
  owner: string;
  titleOrder: 1 | 2;
  /** spec/02 §2 "optional back or menu button": the page the workspace was opened from. */
  back?: { href: string; label: string };
  wide: boolean;
  searchOpen: boolean;
  onSearchOpenChange: (open: boolean) => void;
  search: string;
  onSearchChange: (search: string) => void;
  /** Rarity and unit value range (gp), shown with the search box. */
  filters: Pick<ItemFilters, 'rarity' | 'minValue' | 'maxValue'>;
  onFiltersChange: (filters: Pick<ItemFilters, 'rarity' | 'minValue' | 'maxValue'>) => void;
  viewMode: ViewMode;
  onViewModeChange: (mode: ViewMode) => void;
  layout: LayoutMode;
  onLayoutChange: (layout: LayoutMode) => void;
  canCreate: boolean;
  /**
   * Why a new container cannot be made now (it spends an inventory action of an allowance used up this
   * month): the button stays, disabled, and says so in its tooltip and description.
   */
  createRefusal?: string | null;
  onCreateContainer: () => void;
  /** The New Container button, whichever way it is drawn: where the focus goes back as its dialog closes. */
  createButtonRef?: Ref<HTMLButtonElement>;
  /** Under the owner: whether the party's live updates reach this screen (the realtime indicator). */
  status?: ReactNode;
}

/**
 * spec/02 §2 top bar: an optional back button, the title "Inventory Management" with the owner below it,
 * search toggle (Ctrl/Cmd+F opens it, Escape closes it), single/dual and grid/list toggles on wide screens,
 * and the add-container button. (The menu button is the main layout's own, on phones.)
 */
export function WorkspaceTopBar(props: WorkspaceTopBarProps) {
  const input = useRef<HTMLInputElement>(null);
  const searchButton = useRef<HTMLButtonElement>(null);
  const ownerId = useId();
  const createRefusalId = useId();
  const ranged = props.filters.minValue !== null || props.filters.maxValue !== null;
  const { onSearchOpenChange } = props;
  // The browser's own find is replaced inside the workspace, as the spec asks, except where text is typed.
  // Mantine ignores every <input>, and a segmented control's options are radio inputs: after a click on
  // one, Ctrl+F opened the browser's find.
  useHotkeys(
    [
      [
        'mod+F',
        (event) => {
          if (takesText(event.target)) return;
          event.preventDefault();
          onSearchOpenChange(true);
        },
        { preventDefault: false },
      ],
    ],
    [],
  );
  useEffect(() => {
    if (props.searchOpen) input.current?.focus();
  }, [props.searchOpen]);

  // Closing the search clears it and its filters, so nothing hidden keeps narrowing the list.
  const closeSearch = () => {
    props.onSearchChange('');
    props.onFiltersChange({ rarity: null, minValue: null, maxValue: null });
    onSearchOpenChange(false);
  };
  // The field that had focus goes away with the search: the keyboard goes back to the button that opened it,
  // not to <body>.
  const escapeCloses = (event: React.KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    closeSearch();
    searchButton.current?.focus();
  };

  return (
    <>
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="xs" wrap="nowrap" miw={0}>
          {props.back ? (
            <Tooltip label={props.back.label}>
              <ActionIcon
                component={Link}
                to={props.back.href}
                variant="default"
                size="lg"
                aria-label={props.back.label}
              >
                <IconArrowLeft size={18} aria-hidden="true" />
              </ActionIcon>
            </Tooltip>
          ) : null}
          <Stack gap={0} miw={0}>
            {/* The owner is the heading's description: a screen reader hears whose inventory it is. */}
            <Title
              order={props.titleOrder}
              size={props.titleOrder === 1 ? 'h2' : 'h3'}
              aria-describedby={ownerId}
            >
              {workspaceTitle}
            </Title>
            {/*
              Whole, wrapping (screen sweep: the party's Inventory tab cut a long party name its page title
              shows whole); the tooltip names it as before.
            */}
            <Text
              id={ownerId}
              size="sm"
              c="dimmed"
              title={props.owner}
              style={{ overflowWrap: 'anywhere' }}
              data-testid="workspace-owner"
            >
              {props.owner}
            </Text>
            {props.status ? <Group mt={4}>{props.status}</Group> : null}
          </Stack>
        </Group>
        <Group gap="xs" wrap="wrap">
          <Tooltip label="Search items (Ctrl/Cmd+F)">
            <ActionIcon
              ref={searchButton}
              variant={props.searchOpen ? 'filled' : 'default'}
              size="lg"
              aria-label="Search items"
              aria-pressed={props.searchOpen}
              onClick={() => (props.searchOpen ? closeSearch() : onSearchOpenChange(true))}
            >
              <IconSearch size={18} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
          {props.wide ? (
            <>
              <SegmentedControl
                aria-label="View mode"
                value={props.viewMode}
                onChange={(value) => props.onViewModeChange(value as ViewMode)}
                data={[
                  { value: 'single', label: 'Single' },
                  { value: 'dual', label: 'Dual' },
                ]}
              />
              <SegmentedControl
                aria-label="Layout"
                value={props.layout}
                onChange={(value) => props.onLayoutChange(value as LayoutMode)}
                data={[
                  { value: 'grid', label: 'Grid' },
                  { value: 'list', label: 'List' },
                ]}
              />
            </>
          ) : null}
          {props.canCreate && props.createRefusal ? (
            <Tooltip label={props.createRefusal}>
              <Button
                ref={props.createButtonRef}
                leftSection={<IconPlus size={16} aria-hidden="true" />}
                // Focusable still, so the keyboard and a screen reader meet it and hear why (aria-disabled).
                aria-disabled
                data-disabled
                aria-describedby={createRefusalId}
                onClick={(event) => event.preventDefault()}
              >
                New Container
              </Button>
            </Tooltip>
          ) : (
            <Button
              ref={props.createButtonRef}
              leftSection={<IconPlus size={16} aria-hidden="true" />}
              onClick={props.onCreateContainer}
              disabled={!props.canCreate}
            >
              New Container
            </Button>
          )}
          {props.canCreate && props.createRefusal ? (
            <VisuallyHidden id={createRefusalId}>{props.createRefusal}</VisuallyHidden>
          ) : null}
        </Group>
      </Group>
      {props.searchOpen ? (
        <Group gap="xs" align="flex-start" wrap="wrap" role="search" aria-label="Item search and filters">
          <TextInput
            ref={input}
            aria-label="Search items"
            placeholder="Search items..."
            // The server answers searches of at most 200 characters; more would only show an error.
            maxLength={200}
            leftSection={<IconSearch size={16} aria-hidden="true" />}
            value={props.search}
            onChange={(event) => props.onSearchChange(event.currentTarget.value)}
            onKeyDown={escapeCloses}
            style={{ flex: '1 1 220px' }}
            rightSection={
              props.search ? (
                <CloseButton aria-label="Clear search" onClick={() => props.onSearchChange('')} />
              ) : null
            }
          />
          <Select
            aria-label="Rarity"
            placeholder="Any rarity"
            data={rarityOptions}
            value={props.filters.rarity}
            onChange={(rarity) => props.onFiltersChange({ ...props.filters, rarity })}
            clearable
            onKeyDown={escapeCloses}
            comboboxProps={{ withinPortal: true }}
            style={{ flex: '0 1 150px' }}
          />
          <NumberField
            aria-label="Minimum value (gp)"
            // gp to the copper, the smallest coin: a third decimal names no price.
            maxDecimals={2}
            placeholder="Min gp"
            value={props.filters.minValue ?? ''}
            onChange={(value) => props.onFiltersChange({ ...props.filters, minValue: toGp(value) })}
            min={0}
            allowNegative={false}
            onKeyDown={escapeCloses}
            style={{ flex: '0 1 110px' }}
          />
          <NumberField
            aria-label="Maximum value (gp)"
            // gp to the copper, the smallest coin: a third decimal names no price.
            maxDecimals={2}
            placeholder="Max gp"
            value={props.filters.maxValue ?? ''}
            onChange={(value) => props.onFiltersChange({ ...props.filters, maxValue: toGp(value) })}
            error={isInvertedRange(props.filters.minValue, props.filters.maxValue) ? shortRangeMessage : null}
            min={0}
            allowNegative={false}
            onKeyDown={escapeCloses}
            style={{ flex: '0 1 110px' }}
          />
          {ranged ? (
            <Text size="xs" c="dimmed" w="100%">
              {unpricedOutOfRangeHint}
            </Text>
          ) : null}
        </Group>
      ) : null}
    </>
  );
}

const textlessInputTypes = new Set([
  'button',
  'checkbox',
  'color',
  'file',
  'image',
  'radio',
  'range',
  'reset',
  'submit',
]);

/** Whether a key pressed in this element belongs to the text typed there (the browser's own shortcuts). */
function takesText(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (
    target.isContentEditable ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  ) {
    return true;
  }
  return target instanceof HTMLInputElement && !textlessInputTypes.has(target.type);
}
