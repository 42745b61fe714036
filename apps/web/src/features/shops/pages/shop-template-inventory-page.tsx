import {
  formatCopper,
  formatEnUs,
  inventoryMessages,
  type ShopItem,
  shopMessages,
} from '@haversack/contracts';
import {
  Alert,
  Anchor,
  Button,
  Center,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { memo, useId, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { DetailLoadError } from '../../../components/detail-load-error';
import { noItemsFound } from '../../../components/empty-state';
import { LineFilter, NoMatchingLines, useLineFilter } from '../../../components/line-filter';
import { NumberField } from '../../../components/number-field';
import { templateLineName, UNTOLD_WORTH } from '../../../components/template-line-name';
import { UnavailableLineNote } from '../../../components/unavailable-line-note';
import { isApiError, isRecordNotFound } from '../../../lib/http-client';
import { keepFocusInRow } from '../../../lib/keep-focus-in-row';
import { listReset } from '../../../lib/list-reset';
import { usePageTitle } from '../../../lib/page-title';
import { generalMessages, toast } from '../../../lib/toast';
import { usePhone } from '../../../lib/use-phone';
import { useTemplatePicker } from '../../items/api/template-picker';
import { addShopItem, removeShopItem, shopKeys, shopTemplateQuery, updateShopItem } from '../api/shops-api';
import { warningUnderField } from '../components/field-warning';
import { cpToGp, freeItemWarning, gpAmountError, gpToCp } from '../components/gp-amount';
import { askingPriceLabel } from '../components/stock-line';

/** The own price's field: blank is "from the item's value"; to the copper; 0 is allowed, with a warning. */
function ownPriceProps(price: number | string) {
  return {
    error: gpAmountError(price),
    ...(gpToCp(price) === 0 ? warningUnderField(freeItemWarning) : {}),
  };
}

function errorText(error: unknown): string {
  if (!isApiError(error)) return generalMessages.saveFailed;
  return error.details[0]?.message ?? error.serverMessage ?? error.message;
}

/**
 * One ware in the editor, drawn again only when it changes: typing in the lines' filter redraws the list
 * of up to 200 wares, not each ware's fields.
 */
const ShopItemRow = memo(function ShopItemRow({ templateId, item }: { templateId: string; item: ShopItem }) {
  const queryClient = useQueryClient();
  const phone = usePhone();
  const [quantity, setQuantity] = useState<number | string>(item.quantity);
  const [price, setPrice] = useState<number | string>(cpToGp(item.price_cp));
  const [restock, setRestock] = useState<number | string>(item.restock_quantity ?? '');
  // The row is kept (keyed by its line) through a save, so that the focus stays in it; what the shop holds
  // now, changed here or elsewhere, is what its fields show.
  const [shown, setShown] = useState(item);
  if (
    shown.quantity !== item.quantity ||
    shown.price_cp !== item.price_cp ||
    shown.restock_quantity !== item.restock_quantity
  ) {
    setShown(item);
    setQuantity(item.quantity);
    setPrice(cpToGp(item.price_cp));
    setRestock(item.restock_quantity ?? '');
  }
  const rowRef = useRef<HTMLDivElement>(null);
  const quantityRef = useRef<HTMLInputElement>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: shopKeys.template(templateId) });
  // Save has something to send only once a field differs from what the shop holds.
  const changed =
    Number(quantity) !== item.quantity ||
    gpToCp(price) !== item.price_cp ||
    (restock === '' ? null : Number(restock)) !== item.restock_quantity;
  const save = useMutation({
    mutationFn: () =>
      updateShopItem(templateId, item.id, {
        quantity: Number(quantity) || 0,
        price_cp: gpToCp(price),
        restock_quantity: restock === '' ? null : Number(restock),
      }),
    onSuccess: () => {
      toast.success(shopMessages.stockUpdated);
      keepFocusInRow(rowRef.current, quantityRef.current);
    },
    onSettled: refresh,
  });
  const name = templateLineName(item.item_template);
  const remove = useMutation({
    mutationFn: () => removeShopItem(templateId, item.id),
    onSuccess: () => toast.success(`${name} removed from the shop`),
    onSettled: refresh,
  });
  return (
    <Paper withBorder p="sm" data-testid="shop-item-row" ref={rowRef}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text fw={600}>{name}</Text>
          {/* A private item of someone else's has no prices to tell: "unpriced" would be wrong. */}
          {item.item_template === null ? null : (
            <Text size="sm" c="dimmed">
              {item.buy_price_cp === null
                ? `${inventoryMessages.unpriced}: not sold until priced here`
                : `Sells for ${formatCopper(item.buy_price_cp)}`}{' '}
              ·{' '}
              {item.sell_price_cp === null
                ? `${inventoryMessages.unpriced}: not bought back until priced here`
                : `buys for ${formatCopper(item.sell_price_cp)}`}
            </Text>
          )}
        </Group>
        <UnavailableLineNote available={item.available} restocks />
        {/* Three abreast on a phone too (shorter words, no steppers): a shop of 17 wares stacked one field
            a line ran to 6,000 px there. */}
        <SimpleGrid cols={3} spacing="xs">
          <NumberField
            ref={quantityRef}
            label="Quantity"
            aria-label={`Quantity of ${name}`}
            hideControls={phone}
            min={0}
            allowDecimal={false}
            allowNegative={false}
            value={quantity}
            onChange={setQuantity}
          />
          <NumberField
            label={phone ? 'Price (gp)' : 'Own price (gp)'}
            aria-label={`Own price of ${name} in gp`}
            hideControls={phone}
            placeholder="Its value"
            min={0}
            decimalScale={2}
            allowNegative={false}
            value={price}
            onChange={setPrice}
            {...ownPriceProps(price)}
          />
          <NumberField
            label="Restock to"
            aria-label={`Restock quantity of ${name}`}
            hideControls={phone}
            placeholder={phone ? 'Quantity' : 'Its quantity'}
            min={0}
            allowDecimal={false}
            allowNegative={false}
            value={restock}
            onChange={setRestock}
          />
        </SimpleGrid>
        {save.isError ? (
          <Alert color="red" variant="light" role="alert">
            {errorText(save.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="xs">
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
            onClick={() => save.mutate()}
            loading={save.isPending}
            disabled={!changed || gpAmountError(price) !== null}
            aria-label={`Save ${name}`}
          >
            Save
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
});

/** Add an item (the GM's own item templates, or the public catalogue) with a quantity, an own price and a restock level. */
function AddShopItemForm({ templateId }: { templateId: string }) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [itemTemplateId, setItemTemplateId] = useState<string | null>(null);
  const [quantity, setQuantity] = useState<number | string>(1);
  const [price, setPrice] = useState<number | string>('');
  const [restock, setRestock] = useState<number | string>('');
  const itemRef = useRef<HTMLInputElement>(null);
  const catalogue = useTemplatePicker(debounced);
  const add = useMutation({
    mutationFn: () => {
      if (!itemTemplateId) throw new Error('Choose an item');
      return addShopItem(templateId, {
        item_template_id: itemTemplateId,
        quantity: Number(quantity) || 0,
        price_cp: gpToCp(price),
        restock_quantity: restock === '' ? null : Number(restock),
      });
    },
    onSuccess: (item) => {
      toast.success(`${templateLineName(item.item_template)} added to the shop`);
      setItemTemplateId(null);
      setSearch('');
      setQuantity(1);
      setPrice('');
      setRestock('');
      // "Add to Shop" is closed again until an item is chosen, and a closed button loses the focus: it goes
      // to the item, where the next one is chosen.
      itemRef.current?.focus();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: shopKeys.template(templateId) }),
  });
  const options = catalogue.groups((t) => t.name);
  return (
    <Paper withBorder p="md" component="section" aria-label="Add an item">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          add.mutate();
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4">
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
            required
          />
          <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
            <NumberField
              label="Quantity"
              min={0}
              allowDecimal={false}
              allowNegative={false}
              value={quantity}
              onChange={setQuantity}
            />
            <NumberField
              label="Own price (gp)"
              placeholder="From the item's value"
              min={0}
              decimalScale={2}
              allowNegative={false}
              value={price}
              onChange={setPrice}
              {...ownPriceProps(price)}
            />
            <NumberField
              label="Restock to"
              placeholder="Its quantity"
              min={0}
              allowDecimal={false}
              allowNegative={false}
              value={restock}
              onChange={setRestock}
            />
          </SimpleGrid>
          {add.isError ? (
            <Alert color="red" variant="light" role="alert">
              {errorText(add.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button type="submit" loading={add.isPending} disabled={!itemTemplateId}>
              Add to Shop
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** /shops/templates/{id}/inventory: the creator stocks a template from the item catalogue. */
const noWares: ShopItem[] = [];
const wareName = (item: ShopItem) => templateLineName(item.item_template);

export function ShopTemplateInventoryPage() {
  const { id = '' } = useParams();
  const query = useQuery(shopTemplateQuery(id));
  const headingId = useId();
  const filter = useLineFilter(query.data?.shop_items ?? noWares, wareName);
  usePageTitle(query.data ? `${query.data.display_name} · Inventory` : 'Shop inventory');
  if (query.isPending) {
    return (
      <Stack gap="md" aria-busy="true">
        <Title order={1}>
          <VisuallyHidden>Loading shop inventory</VisuallyHidden>
        </Title>
        <Skeleton height={32} width={240} />
        <Skeleton height={200} />
      </Stack>
    );
  }
  if (query.isError && (!query.data || isRecordNotFound(query.error))) {
    return (
      <DetailLoadError
        error={query.error}
        onRetry={() => void query.refetch()}
        subject="Shop"
        heading="Shop inventory"
        notFoundText="The shop template might not exist or you may not have permission to view it."
        back={{ href: '/shops/templates', label: 'Back to My Shop Templates' }}
      />
    );
  }
  const template = query.data;
  const items = template.shop_items ?? [];
  return (
    <Stack gap="lg" maw={900}>
      <Stack gap={4}>
        <Title order={1} id={headingId}>
          {template.display_name}: Inventory
        </Title>
        <Text c="dimmed">
          What the shop sells when deployed. Prices come from each item's value × the buy modifier, unless you
          set a price of its own.
        </Text>
      </Stack>
      {template.is_owner ? (
        <AddShopItemForm templateId={template.id} />
      ) : (
        <Alert role="note" variant="light" color="blue">
          {template.is_system ? shopMessages.systemTemplate : shopMessages.notOwner}
        </Alert>
      )}
      {items.length === 0 ? (
        <Center py="lg">
          <Text c="dimmed">This shop template has no items yet.</Text>
        </Center>
      ) : template.is_owner ? (
        <Stack gap="sm">
          <LineFilter filter={filter} total={items.length} />
          {filter.shownCount === 0 ? <NoMatchingLines term={filter.term} /> : null}
          {/* A list named by the page's heading, a line a ware: a screen reader says how many and steps
              through. The wares the filter leaves out are hidden, not dropped: their unsaved changes stay. */}
          <Stack
            gap="sm"
            component="ul"
            aria-labelledby={headingId}
            style={listReset}
            data-testid="shop-items"
            hidden={filter.shownCount === 0}
          >
            {items.map((item) => (
              <li key={item.id} hidden={!filter.isShown(item)}>
                <ShopItemRow templateId={template.id} item={item} />
              </li>
            ))}
          </Stack>
        </Stack>
      ) : (
        <Stack gap={6} component="ul" aria-labelledby={headingId} style={listReset} data-testid="shop-items">
          {items.map((item) => (
            <Paper key={item.id} withBorder p="xs" component="li">
              <Group justify="space-between">
                <Text size="sm">{templateLineName(item.item_template)}</Text>
                <Text size="sm" c="dimmed">
                  ×{formatEnUs(item.quantity)} ·{' '}
                  {item.item_template === null ? UNTOLD_WORTH : askingPriceLabel(item.buy_price_cp)}
                </Text>
              </Group>
              <UnavailableLineNote available={item.available} restocks />
            </Paper>
          ))}
        </Stack>
      )}
      <Anchor component={Link} to={`/shops/templates/${template.id}`}>
        Back to {template.display_name}
      </Anchor>
    </Stack>
  );
}
