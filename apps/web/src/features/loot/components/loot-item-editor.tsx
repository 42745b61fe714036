import {
  type Currency,
  currencies,
  formatCopper,
  type LootItem,
  lootMessages,
  MAX_STACK_QUANTITY,
} from '@haversack/contracts';
import { Alert, Button, Group, Paper, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCoins } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { memo, useRef, useState } from 'react';
import { noItemsFound } from '../../../components/empty-state';
import { NumberField } from '../../../components/number-field';
import { UNTOLD_WORTH } from '../../../components/template-line-name';
import { UnavailableLineNote } from '../../../components/unavailable-line-note';
import { formatCount } from '../../../lib/format';
import { isApiError } from '../../../lib/http-client';
import { keepFocusInRow } from '../../../lib/keep-focus-in-row';
import { quantityFieldProps } from '../../../lib/quantity-field';
import { generalMessages, toast } from '../../../lib/toast';
import { useTemplatePicker } from '../../items/api/template-picker';
import { templatePrice } from '../../items/components/template-summary';
import {
  addLootItem,
  type LootItemInput,
  lootErrorMessage,
  lootKeys,
  removeLootItem,
  updateLootItem,
} from '../api/loot-api';
import { lootItemLabel, lootItemName } from './loot-item-list';

const SEARCH_DEBOUNCE_MS = 300;

const coinNames: Record<Currency, string> = {
  cp: 'Copper (cp)',
  sp: 'Silver (sp)',
  ep: 'Electrum (ep)',
  gp: 'Gold (gp)',
  pp: 'Platinum (pp)',
};

/** A field's complaint (VALIDATION_ERROR details) first, else the server's sentence, else ours. */
function errorText(error: unknown): string {
  if (isApiError(error) && error.details[0]) return error.details[0].message;
  return lootErrorMessage(error, generalMessages.saveFailed);
}

/** A whole number from 1 to the largest stack, or null. */
function wholeQuantity(value: number | string): number | null {
  const n = Number(value);
  return value !== '' && Number.isInteger(n) && n >= 1 && n <= MAX_STACK_QUANTITY ? n : null;
}

const quantityError = 'Quantity must be a whole number from 1 to 10,000,000';

/** Every change to a template's lines changes its count and worth in the lists as well. */
function useRefreshTemplates() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: lootKeys.templates() });
}

function useAddLootItem(templateId: string, onAdded: () => void) {
  const refresh = useRefreshTemplates();
  return useMutation({
    mutationFn: ({ input }: { input: LootItemInput; label: string }) => addLootItem(templateId, input),
    onSuccess: (_item, { label }) => {
      toast.success(`${label} added to the loot`);
      onAdded();
    },
    onSettled: refresh,
  });
}

/** Add an item (one of the GM's own item templates, or of the public catalogue) with a quantity. */
export function AddLootItemForm({
  templateId,
  disabled = false,
}: {
  templateId: string;
  disabled?: boolean;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [itemTemplateId, setItemTemplateId] = useState<string | null>(null);
  const [quantity, setQuantity] = useState<number | string>(1);
  const [touched, setTouched] = useState(false);
  const itemRef = useRef<HTMLInputElement>(null);
  const quantityRef = useRef<HTMLInputElement>(null);
  // Coins have their own form below: the catalogue's coin templates would only duplicate it.
  const catalogue = useTemplatePicker(debounced, (t) => !t.is_currency);
  const templates = catalogue.templates;
  const options = catalogue.groups((t) => `${t.name} · ${templatePrice(t)}`);
  const chosen = templates.find((t) => t.id === itemTemplateId);
  const add = useAddLootItem(templateId, () => {
    setItemTemplateId(null);
    setSearch('');
    setQuantity(1);
    setTouched(false);
  });
  const amount = wholeQuantity(quantity);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="add-loot-item-heading">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          // The error is told by its field (aria-describedby), so the focus goes to that field: left on
          // the button, a screen reader would say nothing of it.
          if (!itemTemplateId) return itemRef.current?.focus();
          if (amount === null) return quantityRef.current?.focus();
          add.mutate({
            input: { item_template_id: itemTemplateId, quantity: amount },
            label: chosen?.name ?? 'Item',
          });
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4" id="add-loot-item-heading">
            Add an item
          </Title>
          <Select
            ref={itemRef}
            label="Item"
            placeholder="Search your items and the catalogue"
            searchable
            searchValue={search}
            onSearchChange={setSearch}
            data={options}
            value={itemTemplateId}
            onChange={setItemTemplateId}
            filter={({ options: all }) => all}
            nothingFoundMessage={catalogue.isFetching ? 'Searching…' : noItemsFound}
            comboboxProps={{ withinPortal: true }}
            error={touched && !itemTemplateId ? 'Choose an item' : undefined}
            disabled={disabled}
            required
          />
          <NumberField
            ref={quantityRef}
            label="Quantity"
            {...quantityFieldProps}
            max={MAX_STACK_QUANTITY}
            value={quantity}
            onChange={setQuantity}
            error={touched && amount === null ? quantityError : undefined}
            disabled={disabled}
          />
          {add.isError ? (
            <Alert color="red" variant="light" role="alert">
              {errorText(add.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button type="submit" loading={add.isPending} disabled={disabled}>
              Add Item
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** Add a number of coins of one kind; coins already in the loot are topped up. */
export function AddLootCoinsForm({
  templateId,
  disabled = false,
}: {
  templateId: string;
  disabled?: boolean;
}) {
  const [currency, setCurrency] = useState<Currency>('gp');
  const [quantity, setQuantity] = useState<number | string>('');
  const [touched, setTouched] = useState(false);
  const amountRef = useRef<HTMLInputElement>(null);
  const add = useAddLootItem(templateId, () => {
    setQuantity('');
    setTouched(false);
  });
  const amount = wholeQuantity(quantity);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="add-loot-coins-heading">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (amount === null) return amountRef.current?.focus();
          add.mutate({
            input: { currency, quantity: amount },
            label: `${formatCount(amount)} ${currency}`,
          });
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4" id="add-loot-coins-heading">
            Add coins
          </Title>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Select
              label="Coin"
              data={currencies.map((c) => ({ value: c, label: coinNames[c] }))}
              value={currency}
              onChange={(value) => setCurrency(currencies.find((c) => c === value) ?? 'gp')}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
              disabled={disabled}
            />
            <NumberField
              ref={amountRef}
              label="Amount"
              placeholder="e.g., 250"
              {...quantityFieldProps}
              max={MAX_STACK_QUANTITY}
              thousandSeparator=","
              value={quantity}
              onChange={setQuantity}
              error={touched && amount === null ? quantityError : undefined}
              disabled={disabled}
            />
          </SimpleGrid>
          {add.isError ? (
            <Alert color="red" variant="light" role="alert">
              {errorText(add.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button
              type="submit"
              variant="light"
              loading={add.isPending}
              disabled={disabled}
              leftSection={<IconCoins size={16} aria-hidden="true" />}
            >
              Add Coins
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** One line of the loot: its quantity changed in place (Enter or Save), or the line removed. */
/**
 * One line in the editor, drawn again only when it changes: typing in the lines' filter redraws the list
 * of up to 200 lines, not each line's fields.
 */
export const LootItemRow = memo(function LootItemRow({
  templateId,
  item,
}: {
  templateId: string;
  item: LootItem;
}) {
  const refresh = useRefreshTemplates();
  const [quantity, setQuantity] = useState<number | string>(item.quantity);
  // The row is kept (keyed by its line) through a save, so that the focus stays in it; the quantity the
  // loot holds now, changed here or elsewhere, is what its field shows.
  const [shownQuantity, setShownQuantity] = useState(item.quantity);
  if (shownQuantity !== item.quantity) {
    setShownQuantity(item.quantity);
    setQuantity(item.quantity);
  }
  const rowRef = useRef<HTMLDivElement>(null);
  const quantityRef = useRef<HTMLInputElement>(null);
  const amount = wholeQuantity(quantity);
  const name = lootItemName(item);
  const save = useMutation({
    mutationFn: (next: number) => updateLootItem(templateId, item.id, next),
    onSuccess: () => {
      toast.success(lootMessages.updated);
      keepFocusInRow(rowRef.current, quantityRef.current);
    },
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: () => removeLootItem(templateId, item.id),
    onSuccess: () => toast.success(`${lootItemLabel(item)} removed from the loot`),
    onError: (error) => toast.error(errorText(error)),
    onSettled: refresh,
  });
  const changed = amount !== null && amount !== item.quantity;
  return (
    <Paper withBorder p="sm" data-testid="loot-item-row" ref={rowRef}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (changed && amount !== null) save.mutate(amount);
        }}
      >
        <Stack gap="xs">
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              {item.coin ? <IconCoins size={16} aria-hidden="true" /> : null}
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {lootItemLabel(item)}
              </Text>
            </Group>
            <Text size="sm" c="dimmed">
              {item.value_cp === null || item.total_value_cp === null
                ? UNTOLD_WORTH
                : `${formatCopper(item.value_cp)} each · ${formatCopper(item.total_value_cp)}`}
            </Text>
          </Group>
          <UnavailableLineNote available={item.available} />
          <Group gap="xs" align="flex-end" wrap="wrap">
            <NumberField
              ref={quantityRef}
              label="Quantity"
              aria-label={`Quantity of ${name}`}
              {...quantityFieldProps}
              max={MAX_STACK_QUANTITY}
              value={quantity}
              onChange={setQuantity}
              error={amount === null ? quantityError : undefined}
              w={160}
            />
            <Group gap="xs" ml="auto">
              <Button
                size="xs"
                color="red"
                variant="subtle"
                onClick={() => remove.mutate()}
                loading={remove.isPending}
                aria-label={`Remove ${name}`}
              >
                Remove
              </Button>
              <Button
                size="xs"
                type="submit"
                loading={save.isPending}
                disabled={!changed}
                aria-label={`Save quantity of ${name}`}
              >
                Save
              </Button>
            </Group>
          </Group>
          {save.isError ? (
            <Alert color="red" variant="light" role="alert">
              {errorText(save.error)}
            </Alert>
          ) : null}
        </Stack>
      </form>
    </Paper>
  );
});
