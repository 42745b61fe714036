import {
  emptyPurse,
  formatCopper,
  formatEnUs,
  type PaymentSource,
  planPayment,
  type ShopStockItem,
  shopMessages,
} from '@haversack/contracts';
import { Alert, Button, Group, Input, Modal, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { useDebouncedValue, usePrevious } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { NumberField } from '../../../components/number-field';
import { UpgradePrompt } from '../../../components/upgrade-prompt';
import { isApiError, outcomeUnknown } from '../../../lib/http-client';
import { quantityFieldProps } from '../../../lib/quantity-field';
import { toast } from '../../../lib/toast';
import { isPlanRefusal } from '../../../lib/upgrade-link';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { containerCoinsQuery, ownerContainersQuery } from '../../inventory/api/inventory-api';
import { partyQuery } from '../../parties/api/parties-api';
import {
  isNoOfferRefusal,
  isNotForSaleRefusal,
  priceQuoteQuery,
  saleRefusal,
  shopInstanceQuery,
  tradeErrorMessage,
} from '../api/shops-api';
import { formatPurse, purseWorth, type TradeRequest, useTrade } from '../api/use-trade';
import { shelfKey } from './shop-trading';
import { SplitProceedsField, splitErrorMessage, useSplitProceeds, useSplitSale } from './trade-dialog-split';

/** One buy or sell to confirm: the item, who trades, and a price to show until the server's quote arrives. */
export interface TradeOffer {
  side: 'buy' | 'sell';
  shopId: string;
  shopName: string;
  itemId: string;
  /** A purchase's shelf line (`shelfKey`): one purchase may take all of it, across its stacks. */
  shelf?: string;
  name: string;
  /** How many can change hands at once (the shop's shelf line, or my stack). */
  max: number;
  /** The price of one as the list shows it, in copper; null: wait for the shop's quote. */
  unitCp: number | null;
  characterId: string;
  /** The buyer's container (pays and receives) or the seller's (gives and is paid). */
  containerId: string;
}

const QUOTE_DEBOUNCE_MS = 250;

/**
 * The shelf line on offer as the shop has it now (another buyer may take some or all of it while the dialog
 * is open): a stack of it to name in the purchase (the offered one while it lasts) and how many the line
 * holds, which one purchase may take; null once the line is sold out.
 */
export function liveShelf(
  stock: readonly ShopStockItem[],
  itemId: string,
  shelf: string | undefined,
): { itemId: string; inStock: number } | null {
  const offered = stock.find((item) => item.id === itemId);
  const key = offered ? shelfKey(offered) : shelf;
  const line = key === undefined ? [] : stock.filter((item) => shelfKey(item) === key);
  const named =
    offered ??
    line.reduce<ShopStockItem | undefined>((a, b) => (a && a.quantity >= b.quantity ? a : b), undefined);
  if (!named) return null;
  return { itemId: named.id, inStock: line.reduce((sum, item) => sum + item.quantity, 0) };
}

/**
 * The price before I confirm (issue 10): quantity, the server's total for it (calculate_buy_price /
 * calculate_sell_price) and, for a purchase, my coins and the change I will get back. Two taps on a phone:
 * Buy on the list, then "Buy for …" here.
 */
export function TradeDialog({ offer, onClose }: { offer: TradeOffer | null; onClose: () => void }) {
  const [shown, setShown] = useState<TradeOffer | null>(offer);
  const [quantity, setQuantity] = useState<number | string>(1);
  const [paymentSource, setPaymentSource] = useState<PaymentSource>('character');
  // The price each the buyer has seen: a purchase names it, and a new price must be accepted first.
  const [agreedUnitCp, setAgreedUnitCp] = useState<number | null>(null);
  const trade = useTrade({ onSuccess: onClose });
  // The shop is in the cache already (the list that offered this trade shows it): its payment rules.
  const shop = useQuery({
    ...shopInstanceQuery(shown?.shopId ?? ''),
    enabled: offer !== null && shown !== null,
  });
  const partyId = shop.data?.party_id ?? null;
  // Issue 11 §8: the party's GM may share a sale's proceeds among the party's characters.
  const split = useSplitProceeds(partyId, offer !== null && shown?.side === 'sell');
  const splitSale = useSplitSale({ partyId, onSuccess: onClose });
  useEffect(() => {
    if (offer) {
      setShown(offer);
      setQuantity(1);
      setCutFrom(null);
      setPaymentSource('character');
      setAgreedUnitCp(null);
      setQuotedUnitCp(null);
      trade.reset();
      splitSale.reset();
      split.reset();
    }
  }, [offer, trade.reset, splitSale.reset, split.reset]);
  // Undefined while unknown (a sale, the shop not loaded yet, or the render before `shown` takes a new
  // offer, when it still names the last trade's stack, which that trade may have bought out), null once the
  // stack is gone.
  const live =
    offer !== null && shown === offer && shown.side === 'buy' && shop.data
      ? liveShelf(shop.data.container.item_instances, shown.itemId, shown.shelf)
      : undefined;
  const max = live?.inStock ?? shown?.max ?? 1;
  // Another buyer took some while the dialog was open: ask for what is left, rather than leave a quantity
  // above the stock (and, down to one, no field to lower it) and the Buy button off.
  const previousMax = usePrevious(max);
  // What the buyer had asked for before the stock fell below it: said beside the new number, so that one
  // click does not buy fewer than they think.
  const [cutFrom, setCutFrom] = useState<number | null>(null);
  useEffect(() => {
    if (previousMax === undefined || max >= previousMax) return;
    if (typeof quantity === 'number' && quantity > max) {
      setCutFrom(quantity);
      setQuantity(max);
    }
  }, [max, previousMax, quantity]);
  // The stack the purchase names: the offered one, or another of its line once that one sold out.
  const itemId = live?.itemId ?? shown?.itemId ?? '';
  const amount = typeof quantity === 'number' ? quantity : Number.parseInt(quantity, 10);
  const valid = Number.isInteger(amount) && amount >= 1 && amount <= max;
  const [debounced] = useDebouncedValue(valid ? amount : 1, QUOTE_DEBOUNCE_MS);
  // Only while open, and never for a stack that is gone.
  const quoteWanted = offer !== null && shown !== null && live !== null;
  const quote = useQuery({
    ...priceQuoteQuery(shown?.shopId ?? '', shown?.side ?? 'buy', itemId, debounced),
    enabled: quoteWanted,
  });
  // The shop was refreshed after this price was given (a live event, a refused trade) and still has the
  // stack: ask its price again.
  const { refetch: refetchQuote } = quote;
  const quoteOutdated =
    quoteWanted && quote.isSuccess && !quote.isFetching && shop.dataUpdatedAt > quote.dataUpdatedAt;
  useEffect(() => {
    if (quoteOutdated) void refetchQuote();
  }, [quoteOutdated, refetchQuote]);
  const gone = live === null && !trade.isPending;
  const refusal = trade.error;
  useEffect(() => {
    if (!gone) return;
    // Nothing left to buy: close, and say why once (the dialog that would have shown it is gone).
    toast.error(refusal ? tradeErrorMessage(refusal, 'buy') : shopMessages.outOfStock);
    onClose();
  }, [gone, refusal, onClose]);
  const coins = useQuery({
    ...containerCoinsQuery(shown?.containerId ?? ''),
    enabled: offer !== null && shown?.side === 'buy',
  });
  // The party fund pays from the party's first stash (as the server picks it): its coins, to show before
  // the buyer chooses it. A player whose plan cannot open the stash sees no count; the server decides.
  const fundOffered = offer !== null && shown?.side === 'buy' && shop.data?.party_fund_allowed === true;
  const partyContainers = useQuery({
    ...ownerContainersQuery({ type: 'party', id: partyId ?? '' }),
    enabled: fundOffered && partyId !== null,
  });
  const fundId = partyContainers.data?.[0]?.id;
  const fundCoins = useQuery({
    ...containerCoinsQuery(fundId ?? ''),
    enabled: fundOffered && fundId !== undefined,
  });
  // Refused for room (spec/02's capacity messages): the container it would go into is named under the
  // message, with what to do, so the buyer need not guess which of their bags is full.
  const capacityRefused = isApiError(trade.error) && trade.error.code === 'CAPACITY_EXCEEDED';
  const buyerContainers = useQuery({
    ...ownerContainersQuery({ type: 'character', id: shown?.characterId ?? '' }),
    enabled: offer !== null && shown?.side === 'buy' && capacityRefused,
  });
  const fullContainer = buyerContainers.data?.find((c) => c.id === shown?.containerId);
  // The shop's latest price each: it does not depend on the quantity, so it holds while another is asked.
  const [quotedUnitCp, setQuotedUnitCp] = useState<number | null>(null);
  const quotedNow = quote.data?.unit_price_cp;
  useEffect(() => {
    if (quotedNow !== undefined) setQuotedUnitCp(quotedNow);
  }, [quotedNow]);
  const knownUnitCp = quotedUnitCp ?? shown?.unitCp ?? null;
  useEffect(() => {
    if (agreedUnitCp === null && knownUnitCp !== null && offer !== null) setAgreedUnitCp(knownUnitCp);
  }, [agreedUnitCp, knownUnitCp, offer]);
  // A refusal for who I am here (an observer, the party archived) is old news once that changes while the
  // dialog is open (a live event refreshes the shop and the party): it goes, and Buy can be pressed afresh.
  // One that got no answer stays, as pressing again must send it unchanged.
  const refused = trade.error ?? splitSale.error;
  const party = useQuery({
    ...partyQuery(partyId ?? ''),
    enabled: offer !== null && partyId !== null && refused !== null,
  });
  const mayTrade = shop.data?.can_trade === true && party.data?.is_archived !== true;
  const mightTrade = usePrevious(mayTrade);
  const { reset: resetTrade } = trade;
  const { reset: resetSplitSale } = splitSale;
  useEffect(() => {
    if (mightTrade !== false || !mayTrade || refused === null || outcomeUnknown(refused)) return;
    resetTrade();
    resetSplitSale();
  }, [mayTrade, mightTrade, refused, resetTrade, resetSplitSale]);
  // One trade per press: `pending` is drawn a render late, after Enter and a tap in the same task.
  const once = useSingleFlight(offer);
  if (!shown) return null;
  const buying = shown.side === 'buy';
  // The GM closed the shop while the dialog was open (a live event refreshed it): the shop would refuse.
  const closed = shop.data?.is_active === false;
  const partyFundAllowed = buying && shop.data?.party_fund_allowed === true;
  const fromParty = partyFundAllowed && paymentSource === 'party';
  const thresholdCp = buying ? (shop.data?.approval_threshold_cp ?? null) : null;
  const settled = quote.data && quote.data.quantity === amount;
  const unitCp = knownUnitCp;
  const totalCp =
    settled && quote.data
      ? quote.data.total_price_cp
      : // A sale is rounded down once for the line, not per piece: only the shop's quote knows its total.
        !buying || shown.unitCp === null
        ? null
        : shown.unitCp * (valid ? amount : 1);
  const payerCoins = fromParty ? fundCoins.data : coins.data;
  const purse = buying && payerCoins ? { ...emptyPurse(), ...payerCoins } : null;
  const needsApproval = thresholdCp !== null && totalCp !== null && totalCp > thresholdCp;
  const plan = purse && totalCp !== null ? planPayment(purse, totalCp) : null;
  const price = (cp: number | null) => (cp === null ? 'Checking…' : formatCopper(cp));
  // The GM repriced it while the dialog was open (a live event): say so, and have the new price accepted.
  const repriced = buying && agreedUnitCp !== null && unitCp !== null && unitCp !== agreedUnitCp;
  const splitting = !buying && split.on;
  const failure = splitting ? splitSale.error : trade.error;
  const pending = trade.isPending || splitSale.isPending;
  // An unpriced item the shop has no price of its own for: it offers nothing for mine and does not sell its
  // own, so there is nothing to trade at (the quote says so, or the trade itself when the GM took the price
  // away while this was open). `noOffer` covers both sides; `notForSale` says which message.
  const notForSale = buying && (isNotForSaleRefusal(quote.error) || isNotForSaleRefusal(failure));
  const noOffer = notForSale || (!buying && (isNoOfferRefusal(quote.error) || isNoOfferRefusal(failure)));
  // The shop's quote refuses this sale as asked (worth 0 cp once rounded down for the whole line: one torch
  // at half price): said in its words, and no sale is offered; more of them at once may fetch something,
  // so the quantity stays.
  const refusedSale = buying || noOffer ? null : saleRefusal(quote.error);
  const worthless = !buying && valid && (refusedSale !== null || (settled === true && totalCp === 0));
  // The line's total is rounded down once: it may be more than the price each times the quantity.
  const roundedOnce =
    !buying && valid && !worthless && unitCp !== null && totalCp !== null && totalCp > unitCp * amount;

  const confirm = () => {
    if (!valid || pending || noOffer || worthless || (splitting && split.blocked)) return;
    // The last trade got no answer and may have been made: pressed again, it goes exactly as it went (the
    // same stack, though that one may be sold out now, and so the same key), and the server answers it from
    // what it kept rather than trading twice. Changing the quantity or the payer first asks anew.
    if (!splitting && trade.variables && outcomeUnknown(trade.error)) {
      const again = trade.variables;
      once(() => trade.mutateAsync(again));
      return;
    }
    if (splitting && splitSale.variables && outcomeUnknown(splitSale.error)) {
      const again = splitSale.variables;
      once(() => splitSale.mutateAsync(again));
      return;
    }
    if (repriced) {
      setAgreedUnitCp(unitCp);
      return;
    }
    if (splitting) {
      const sale = {
        shopId: shown.shopId,
        itemInstanceId: itemId,
        quantity: amount,
        characterId: shown.characterId,
        containerId: shown.containerId,
        splitAmong: split.chosen.map((c) => c.id),
      };
      once(() => splitSale.mutateAsync(sale));
      return;
    }
    const request: TradeRequest = {
      side: shown.side,
      name: shown.name,
      shopId: shown.shopId,
      itemInstanceId: itemId,
      quantity: amount,
      characterId: shown.characterId,
      containerId: shown.containerId,
      ...(buying ? { paymentSource: fromParty ? 'party' : 'character' } : {}),
      ...(fromParty ? { payerName: partyContainers.data?.[0]?.name ?? 'the party stash' } : {}),
      ...(buying && unitCp !== null ? { expectedUnitPriceCp: unitCp } : {}),
    };
    once(() => trade.mutateAsync(request));
  };

  return (
    <Modal
      opened={offer !== null}
      onClose={onClose}
      title={
        // A long name shows whole, wrapping inside the dialog, at a line height its lines can be read at
        // (screen sweep: a one-word name ran past a phone's edge; Mantine sets titles at 1), as the item's own.
        <Text
          component="span"
          inherit
          lh={1.3}
          style={{ overflowWrap: 'anywhere' }}
          data-testid="trade-dialog-title"
        >
          {buying ? `Buy ${shown.name}` : `Sell ${shown.name}`}
        </Text>
      }
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          confirm();
        }}
      >
        <Stack gap="md">
          <Text size="sm">
            {buying
              ? `${shown.shopName} has ${formatEnUs(max)} in stock.`
              : unitCp === null || noOffer
                ? `You have ${formatEnUs(max)}.`
                : `You have ${formatEnUs(max)}. ${shown.shopName} pays ${formatCopper(unitCp)} each.`}
          </Text>
          {closed ? (
            // Red, as the shop page says it: the same state in the same colour.
            <Alert color="red" variant="light" role="alert" data-testid="trade-shop-closed">
              {shopMessages.shopClosed}
            </Alert>
          ) : null}
          {cutFrom !== null && shown.side === 'buy' ? (
            <Alert color="yellow" variant="light" role="status" data-testid="trade-stock-fell">
              {`Only ${formatEnUs(max)} left now: someone else just bought some. You had asked for ${formatEnUs(cutFrom)}.`}
            </Alert>
          ) : null}
          {max > 1 && !noOffer ? (
            <NumberField
              // First focus lands here, not on the buy button: that one may be disabled (coins short, price
              // unknown), and a disabled button left focus on the page behind the dialog. Without this field
              // Mantine focuses the dialog's first enabled control.
              data-autofocus
              label="Quantity"
              value={quantity}
              onChange={(value) => {
                setQuantity(value);
                setCutFrom(null);
                // A different trade now: the unanswered one is no longer what Buy would send again.
                if (outcomeUnknown(trade.error)) trade.reset();
                if (outcomeUnknown(splitSale.error)) splitSale.reset();
              }}
              {...quantityFieldProps}
              max={max}
              disabled={closed}
              description={`1 to ${formatEnUs(max)}`}
              error={valid ? undefined : 'Enter a whole number in range'}
              // Typing a number replaces the 1 it opens with, rather than making it 13.
              onFocus={(event) => event.currentTarget.select()}
            />
          ) : null}
          {partyFundAllowed && !noOffer ? (
            <Stack gap={4}>
              <Input.Label labelElement="div" id="trade-payment-label">
                Pay with
              </Input.Label>
              <SegmentedControl
                aria-labelledby="trade-payment-label"
                value={paymentSource}
                onChange={(value) => {
                  setPaymentSource(value === 'party' ? 'party' : 'character');
                  if (outcomeUnknown(trade.error)) trade.reset();
                }}
                data={[
                  { value: 'character', label: 'My coins' },
                  { value: 'party', label: 'Party fund' },
                ]}
                fullWidth
                disabled={closed}
                data-testid="trade-payment-source"
              />
            </Stack>
          ) : null}
          {repriced && agreedUnitCp !== null && unitCp !== null ? (
            <Alert color="yellow" variant="light" role="alert" data-testid="trade-repriced">
              The price has changed from {formatCopper(agreedUnitCp)} to {formatCopper(unitCp)} each. Accept
              the new price to buy at it.
            </Alert>
          ) : null}
          {noOffer ? (
            <Alert color="yellow" variant="light" role="alert" data-testid="trade-no-offer">
              {notForSale ? shopMessages.unpricedNotForSale : shopMessages.unpricedNoOffer}
            </Alert>
          ) : (
            <Paper withBorder p="sm" data-testid="trade-price">
              <Stack gap={4}>
                <Group justify="space-between">
                  <Text size="sm">Price each</Text>
                  <Text size="sm" fw={600}>
                    {price(unitCp)}
                  </Text>
                </Group>
                <Group justify="space-between">
                  <Text size="sm">
                    {buying ? 'Total to pay' : splitting ? 'The characters receive' : 'You receive'}
                  </Text>
                  <Text size="lg" fw={700} data-testid="trade-total">
                    {valid && !worthless ? price(totalCp) : '—'}
                  </Text>
                </Group>
                {fromParty ? (
                  <Text size="xs" c="dimmed" data-testid="trade-party-fund">
                    Paid from the party stash's coins; the goods go into your container.
                  </Text>
                ) : null}
                {needsApproval && thresholdCp !== null ? (
                  <Text size="xs" c="orange" data-testid="trade-needs-approval">
                    {thresholdCp === 0
                      ? "Every purchase here waits for the GM's approval."
                      : `Over ${formatCopper(thresholdCp)}: this purchase waits for the GM's approval.`}{' '}
                    The goods are held for you and nothing is paid until then.
                  </Text>
                ) : null}
                {worthless ? (
                  // DESIGN §4 rounds a sale down once for the line: one torch (1 cp) at half price fetches
                  // nothing, and the shop does not take it for nothing.
                  <Text size="xs" c="orange" data-testid="trade-worthless">
                    {refusedSale ?? `${shown.shopName} pays nothing for this.`}
                  </Text>
                ) : null}
                {roundedOnce && unitCp !== null && totalCp !== null ? (
                  <Text size="xs" c="dimmed" data-testid="trade-rounded-once">
                    Rounded down once for all {amount}, not for each one: {formatCopper(totalCp)}, not{' '}
                    {amount} × {formatCopper(unitCp)}.
                  </Text>
                ) : null}
                {quote.isError && refusedSale === null ? (
                  <Text size="xs" c="dimmed">
                    The shop's price could not be checked; the shop settles the final price.
                  </Text>
                ) : null}
                {purse ? (
                  <>
                    <Group justify="space-between" wrap="nowrap" align="flex-start">
                      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                        {fromParty ? 'Party fund' : 'Your coins'}
                      </Text>
                      <Text size="sm" fw={600} ta="right" data-testid="trade-coins">
                        {purseWorth(purse)}
                      </Text>
                    </Group>
                    {!valid ? null : plan?.ok ? (
                      <Text size="xs" c="dimmed" data-testid="trade-change">
                        {/* One payer, one verb: "You hand over … and get", "The party hands over … and gets". */}
                        {/* Held for approval, nothing is paid yet: the coins change hands once it is approved. */}
                        {needsApproval ? 'Once approved, ' : ''}
                        {fromParty
                          ? `${needsApproval ? 'the' : 'The'} party hands over`
                          : `${needsApproval ? 'you' : 'You'} hand over`}{' '}
                        {formatPurse(plan.pay)}
                        {plan.changeCp > 0
                          ? ` and ${fromParty ? 'gets' : 'get'} ${formatPurse(plan.change)} back.`
                          : '.'}
                      </Text>
                    ) : plan ? (
                      <Text size="sm" c="red" data-testid="trade-short">
                        {fromParty ? 'Not enough in the party fund' : 'Not enough coins'}:{' '}
                        {formatCopper(plan.missingCp)} more is needed.
                      </Text>
                    ) : null}
                  </>
                ) : null}
              </Stack>
            </Paper>
          )}
          {buying || noOffer ? null : <SplitProceedsField split={split} totalCp={totalCp} />}
          {failure && isApiError(failure) && isPlanRefusal(failure) ? (
            <UpgradePrompt error={failure} />
          ) : failure && !noOffer ? (
            <Alert color="red" variant="light" role="alert" data-testid="trade-error">
              {splitting ? splitErrorMessage(failure) : tradeErrorMessage(failure, shown.side)}
              {buying && capacityRefused ? (
                <Text size="sm" mt={4} data-testid="trade-cannot-carry">
                  {shopMessages.cannotCarry(fullContainer?.name ?? 'This container')}
                </Text>
              ) : null}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            {noOffer ? null : (
              <Button
                type="submit"
                disabled={
                  closed ||
                  !valid ||
                  (totalCp === null && !quote.isError) ||
                  worthless ||
                  (splitting && split.blocked) ||
                  // My coins, counted here, do not cover it: the shop would only refuse.
                  plan?.ok === false
                }
                loading={pending}
              >
                {repriced
                  ? 'Accept the new price'
                  : totalCp === null || !valid || worthless
                    ? buying
                      ? 'Buy'
                      : 'Sell'
                    : needsApproval
                      ? `Ask to buy for ${formatCopper(totalCp)}`
                      : splitting
                        ? `Sell and split ${formatCopper(totalCp)}`
                        : `${buying ? 'Buy' : 'Sell'} for ${formatCopper(totalCp)}`}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
