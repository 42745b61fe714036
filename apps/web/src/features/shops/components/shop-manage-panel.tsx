import {
  formatEnUs,
  restockBadge,
  type ShopInstance,
  type ShopInstanceUpdate,
  shopInstanceUpdateSchema,
  shopMessages,
  shopPricingNotes,
} from '@haversack/contracts';
import {
  Alert,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { NumberField } from '../../../components/number-field';
import { isApiError } from '../../../lib/http-client';
import { generalMessages, toast } from '../../../lib/toast';
import { absoluteTime } from '../../activity/lib/relative-time';
import { partyActionAt, useAllowanceSpentAt } from '../../inventory/hooks/use-spent-allowances';
import {
  deleteShopInstance,
  invalidateShop,
  restockScheduleQuery,
  restockShop,
  shopKeys,
  updateShopInstance,
} from '../api/shops-api';
import { DiscountInput, discountPercentError, discountPercentOf, discountRateOf } from './discount-input';
import { gpAmountError } from './gp-amount';
import { StockShopForm } from './stock-shop-form';
import { TakeBackStock } from './take-back-stock';

/**
 * spec/02 §4: modifiers 0 to 10. An empty field is refused too: sent as 0, an emptied buy modifier priced
 * the whole shelf at 0 cp.
 */
function modifierError(value: number | string, message: string): string | null {
  const n = Number(value);
  return value === '' || !Number.isFinite(n) || n < 0 || n > 10 ? message : null;
}

/** The approval threshold typed in gold, in copper; empty is none (every purchase completes at once). */
function thresholdCp(gp: number | string): number | null {
  return gp === '' ? null : Math.round(Number(gp) * 100);
}

/** To the copper, then the threshold's own range from the contract (up to the largest price). */
function thresholdError(gp: number | string): string | null {
  const typed = gpAmountError(gp, 'amount');
  if (typed !== null) return typed;
  const checked = shopInstanceUpdateSchema.shape.approval_threshold_cp.safeParse(thresholdCp(gp));
  return checked.success ? null : (checked.error.issues[0]?.message ?? null);
}

function errorText(error: unknown): string {
  if (!isApiError(error)) return generalMessages.saveFailed;
  return error.details[0]?.message ?? error.serverMessage ?? error.message;
}

/**
 * What deleting a shop does, the purchases still waiting for the GM included: they go with the shop, their
 * goods destroyed with the stock, and nobody is charged.
 */
export function deleteShopMessage(name: string, pendingRequests: number): string {
  const waiting =
    pendingRequests === 0
      ? ''
      : pendingRequests === 1
        ? ' The purchase waiting for approval is dropped with it; nobody is charged.'
        : ` The ${pendingRequests} purchases waiting for approval are dropped with it; nobody is charged.`;
  return `Delete ${name}? Its stock is destroyed.${waiting} This cannot be undone.`;
}

/** GM and managers: open or close, discount, modifiers, restock, stock and take back, delete (issue 10 item 4). */
export function ShopManagePanel({ shop }: { shop: ShopInstance }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState(shop.name);
  const [discount, setDiscount] = useState<number | string>(discountPercentOf(shop.discount_rate));
  const [buyModifier, setBuyModifier] = useState<number | string>(shop.buy_modifier);
  const [sellModifier, setSellModifier] = useState<number | string>(shop.sell_modifier);
  const [restockDays, setRestockDays] = useState<number | string>(shop.restock_days ?? 0);
  const [partyFund, setPartyFund] = useState(shop.party_fund_allowed ?? false);
  // Shown in gold pieces, kept in copper (DESIGN §4); empty: every purchase completes at once.
  const [thresholdGp, setThresholdGp] = useState<number | string>(
    shop.approval_threshold_cp == null ? '' : shop.approval_threshold_cp / 100,
  );
  const [deleting, setDeleting] = useState(false);
  // The fields show the shop as saved: after a save here or a change made elsewhere (the page follows the
  // party live) they take its values again. Not by remounting the panel, which took the focus away from
  // the Save Changes or Restock Now just pressed.
  const [shownVersion, setShownVersion] = useState(shop.updated_at);
  if (shop.updated_at !== shownVersion) {
    setShownVersion(shop.updated_at);
    setName(shop.name);
    setDiscount(discountPercentOf(shop.discount_rate));
    setBuyModifier(shop.buy_modifier);
    setSellModifier(shop.sell_modifier);
    setRestockDays(shop.restock_days ?? 0);
    setPartyFund(shop.party_fund_allowed ?? false);
    setThresholdGp(shop.approval_threshold_cp == null ? '' : shop.approval_threshold_cp / 100);
  }
  const schedule = useQuery(restockScheduleQuery(shop.id));
  // Stocking the shelf and taking stock back each spend an inventory action of the shop's party, whoever
  // runs the shop (shops.service stockItem, unstockItem): at the month's limit both stay in place, closed,
  // and say why. Restock Now and the settings spend none.
  const allowanceSpent = useAllowanceSpentAt(partyActionAt(shop.party_id));

  const update = useMutation({
    mutationFn: (change: ShopInstanceUpdate) => updateShopInstance(shop.id, change),
    onSuccess: (_shop, change) => {
      if (change.is_active === false) toast.success(shopMessages.closed);
      else if (change.is_active === true) toast.success('Shop opened successfully!');
      else toast.success('Shop updated successfully!');
    },
    onSettled: async () => {
      await invalidateShop(queryClient, shop.id);
      await queryClient.invalidateQueries({ queryKey: shopKeys.restockSchedule(shop.id) });
    },
  });
  const restock = useMutation({
    mutationFn: () => restockShop(shop.id),
    onSuccess: (result) =>
      toast.success(
        result.added.length > 0
          ? `${shopMessages.restocked}: ${result.added.map((a) => `${formatEnUs(a.quantity)} × ${a.name}`).join(', ')}`
          : `${shopMessages.restocked}: nothing was missing`,
      ),
    onSettled: () => invalidateShop(queryClient, shop.id),
  });
  const remove = useMutation({
    mutationFn: () => deleteShopInstance(shop.id),
    onSuccess: async () => {
      toast.success(`Shop "${shop.name}" removed`);
      queryClient.removeQueries({ queryKey: shopKeys.instance(shop.id) });
      await invalidateShop(queryClient, null);
      navigate(`/parties/${shop.party_id}?tab=shops`, { replace: true });
    },
  });

  const buyModifierError = modifierError(buyModifier, shopMessages.buyModifierRange);
  const sellModifierError = modifierError(sellModifier, shopMessages.sellModifierRange);
  // Each field says why beside it; nothing that changes what the shop charges is saved otherwise than typed.
  const refused =
    discountPercentError(discount) !== null ||
    buyModifierError !== null ||
    sellModifierError !== null ||
    thresholdError(thresholdGp) !== null;
  const save = () => {
    if (refused) return;
    update.mutate({
      name: name.trim(),
      discount_rate: discountRateOf(discount),
      buy_modifier: Number(buyModifier),
      sell_modifier: Number(sellModifier),
      restock_days: Number(restockDays) || null,
      party_fund_allowed: partyFund,
      approval_threshold_cp: thresholdCp(thresholdGp),
    });
  };
  const nextRestock = schedule.data?.next_restock_at ? absoluteTime(schedule.data.next_restock_at) : null;

  return (
    <Stack gap="md" data-testid="shop-manage">
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Title order={2} size="h5">
            Open or close
          </Title>
          <Switch
            label={shop.is_active ? 'Open: players can buy and sell' : 'Closed: nobody can trade'}
            checked={shop.is_active}
            disabled={update.isPending}
            onChange={(event) => update.mutate({ is_active: event.currentTarget.checked })}
          />
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
        >
          <Stack gap="sm">
            <Title order={2} size="h5">
              Prices, payment and restock
            </Title>
            <TextInput
              label="Shop name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              required
            />
            <SimpleGrid cols={{ base: 1, xs: 2 }}>
              <DiscountInput value={discount} onChange={setDiscount} />
              <NumberField
                label="Restock every (days)"
                description="0 = never"
                min={0}
                max={365}
                allowDecimal={false}
                value={restockDays}
                onChange={setRestockDays}
              />
              <NumberField
                label="Buy modifier"
                // Typed past the range, the value stays and the form says why (spec/02 §4), not silently 10.
                clampBehavior="none"
                description="What players pay, × item value"
                min={0}
                max={10}
                step={0.05}
                decimalScale={4}
                value={buyModifier}
                onChange={setBuyModifier}
                error={buyModifierError}
              />
              <NumberField
                label="Sell modifier"
                clampBehavior="none"
                description="What the shop pays, × item value"
                min={0}
                max={10}
                step={0.05}
                decimalScale={4}
                value={sellModifier}
                onChange={setSellModifier}
                error={sellModifierError}
              />
            </SimpleGrid>
            <Text size="xs" c="dimmed" data-testid="sell-cap-note">
              {shopPricingNotes.sellCap}
            </Text>
            <Title order={3} size="h6" mt="xs">
              Paying and approvals
            </Title>
            <Switch
              label="Players may pay from the party fund"
              description="A purchase can be paid with the party stash's coins; the ledger says so."
              checked={partyFund}
              onChange={(event) => setPartyFund(event.currentTarget.checked)}
            />
            <NumberField
              label="Ask me to approve purchases above (gp)"
              description="Leave empty to let every purchase complete at once. Above it, the goods are held until you decide."
              min={0}
              // Typed past a bound, the value stays and the field says why, not silently 9,000 gp.
              clampBehavior="none"
              decimalScale={2}
              allowNegative={false}
              value={thresholdGp}
              onChange={setThresholdGp}
              error={thresholdError(thresholdGp)}
              data-testid="approval-threshold"
            />
            {update.isError ? (
              <Alert color="red" variant="light" role="alert">
                {errorText(update.error)}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button type="submit" loading={update.isPending}>
                Save Changes
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Title order={2} size="h5">
            Restock
          </Title>
          <Text size="sm" data-testid="restock-schedule">
            {restockBadge(shop.restock_days).label === 'Never'
              ? 'This shop never restocks by itself.'
              : `Restocks ${restockBadge(shop.restock_days).label.toLowerCase()}${nextRestock ? `; next on ${nextRestock}` : ''}.`}
          </Text>
          <Group>
            <Button variant="light" onClick={() => restock.mutate()} loading={restock.isPending}>
              Restock Now
            </Button>
          </Group>
        </Stack>
      </Paper>
      <StockShopForm shop={shop} allowanceSpent={allowanceSpent} />
      <TakeBackStock shop={shop} allowanceSpent={allowanceSpent} />
      <Paper withBorder p="md">
        <Stack gap="sm" align="flex-start">
          <Title order={2} size="h5">
            Remove shop
          </Title>
          <Text size="sm" c="dimmed">
            The shop leaves the party; its stock is destroyed and recorded in the ledger.
          </Text>
          <Button color="red" variant="light" onClick={() => setDeleting(true)}>
            Delete Shop
          </Button>
        </Stack>
      </Paper>
      <ConfirmDialog
        opened={deleting}
        title="Delete shop"
        message={deleteShopMessage(shop.name, shop.pending_requests_count ?? 0)}
        confirmLabel="Delete"
        loading={remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={() => remove.mutate()}
      />
    </Stack>
  );
}
