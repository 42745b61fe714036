import { z } from 'zod';
import { pageMetaSchema } from './envelope.js';
import { entityId, hasVisibleText, nameText, numberInput, tagText, text } from './fields.js';
import {
  type Currency,
  copperPer,
  currencies,
  type ItemInstance,
  isUnpricedItem,
  itemInstanceSchema,
  MAX_ITEM_VALUE,
  transactionSchema,
} from './inventory.js';
import { formatCopper, itemTemplateSchema, templateVisibilities } from './items.js';
import { unwrapFilters } from './parties.js';

// ---------------------------------------------------------------------------------------------------
// Words of the spec (spec/02 §2, §3, §4, §5; spec/01 §8 toasts)
// ---------------------------------------------------------------------------------------------------

export const shopMessages = {
  nameTooShort: 'Shop name must be at least 2 characters long',
  nameTooLong: 'Shop name must be less than 100 characters',
  buyModifierRange: 'Buy modifier must be between 0 and 10',
  sellModifierRange: 'Sell modifier must be between 0 and 10',
  /** The discount as the shop forms take it, in percent; the API's `discount_rate` is the same rule from 0 to 1. */
  discountRange: 'Discount must be from 0 to 100 %',
  templateNotFound: 'Shop template not found.',
  instanceNotFound: 'Shop not found.',
  shopItemNotFound: 'Shop item not found.',
  notOwner: 'Only the creator of this shop template can change it.',
  systemTemplate: 'Catalogue shops cannot be changed. Clone it to make your own version.',
  created: 'Shop template created successfully',
  updated: 'Shop template updated successfully',
  cloned: 'Shop template cloned',
  deployed: (name: string) => `Shop "${name}" deployed successfully!`,
  closed: 'Shop closed successfully!',
  stockUpdated: 'Stock updated successfully!',
  unstocked: 'Taken back from the shop',
  onlyOnShelf: (count: number) =>
    count === 1 ? 'There is only 1 of these on the shelf.' : `There are only ${count} of these on the shelf.`,
  unstockNotInShop: 'Item not found in this shop.',
  unstockNotInParty: 'Choose a container of this party: the party stash or a character in it.',
  restocked: 'Shop restocked',
  purchased: 'Purchase complete',
  sold: 'Sale complete',
  shopClosed: 'This shop is closed.',
  outOfStock: 'This item is out of stock.',
  insufficientFunds: (missingCp: number) => `Not enough coins: ${formatCopper(missingCp)} more is needed.`,
  insufficientWithRequests: (missingCp: number, waitingCp: number) =>
    `Not enough coins: ${formatCopper(missingCp)} more is needed, counting the ${formatCopper(waitingCp)} of purchases already waiting for the GM's approval.`,
  /**
   * Under a capacity refusal (spec/02's message stays as it is): which container is full, and that the
   * buyer may carry the goods into another.
   */
  cannotCarry: (containerName: string) =>
    `${containerName} cannot carry it: choose another container to carry it into.`,
  /** An approved request whose payer is now short: whose purse, so that the GM knows whom to ask. */
  payerShort: (payerName: string, missingCp: number) =>
    `${payerName} is short of coins: ${formatCopper(missingCp)} more is needed.`,
  priceChanged: (unitCp: number) =>
    `The price has changed: it is now ${formatCopper(unitCp)} each. Check the new price and buy again.`,
  notInShop: 'That item is not for sale in this shop.',
  /** A sale of an item without a price (`isUnpricedItem`) at a shop without a price of its own for it. */
  unpricedNoOffer:
    'This item has no price, so the shop cannot offer anything for it. Ask your GM to price it in the shop first.',
  /** A purchase of an unpriced item on the shelf (`askingPriceCp` null): the shop has no price of its own for it. */
  unpricedNotForSale: 'This item has no price yet: the GM must price it before it can be bought.',
  /**
   * The GM's side of it on the shelf: a shop's own price is set on the line itself ("Set price", PUT
   * shop_instances/{id}/prices/{itemTemplateId}), which prices every one of it on the shelf.
   */
  unpricedOnShelfGm:
    'Players cannot buy it until it has a price here: use “Set price” on this line, and every one on the shelf sells at it.',
  /** PUT shop_instances/{id}/prices/{itemTemplateId}: the shop's own price for an item, set or cleared. */
  priceSaved: 'Price saved',
  priceCleared: 'Price cleared',
  /** A price for an item the shop does not have on its shelf: there is no line to price. */
  priceNotOnShelf: 'This item is not on the shelf: there is nothing to price.',
  /** The GM approves a request whose item lost its shop price since it was asked for. */
  requestUnpriced:
    'This item has no price in this shop any more: price it again before approving, or decline the request.',
  currencyNotSold: 'Coins cannot be bought or sold.',
  containerNotCharacters: 'Choose a container of that character.',
  characterNotInParty: 'Choose one of your characters in this party.',
  cannotTrade: 'You need a character in this party to trade here.',
  /** DESIGN §4: observers only read, whatever characters they have in the party. */
  observerCannotTrade: 'Observers cannot trade in shops.',
  cannotManage: 'Only the GM and managers can manage this shop.',
  gmOnlyParty: 'Only the GM manages shops in this party, where only the GM adds items.',
  ratingOwn: 'You cannot rate your own shop template.',
  ratingNotPublic: 'Only public shop templates can be rated.',
  rated: 'Thanks for rating this shop',
  archivedParty: 'This party is archived: its shops are read-only.',
  fetchItemsFailed: 'Failed to fetch shop items',
  loadFailed: 'An unexpected error occurred while loading shops.',
  unableToLoad: 'Unable to Load Shops',
  noShopsFound: 'No Shops Found',
  noPartyShops: 'No active shops in your party yet. Deploy a shop template to get started.',
  /** The same, to a member who may not deploy one (only the GM or a manager may). */
  noPartyShopsForMember: 'No active shops in your party yet. They appear here once one is deployed.',
  noInstances: 'No shop instances found. Deploy shop templates from the marketplace to get started.',
  partyFundNotAllowed: 'The GM has not allowed paying from the party fund at this shop.',
  partyFundNoStash: 'This party has no stash to pay from.',
  partyFundWrongContainer: 'Choose one of this party’s stash containers.',
  payerWithoutPartyFund:
    'Only a purchase paid from the party fund names a stash to pay: set payment_source to party, or leave payer_container_id out.',
  requestCreated: 'Your purchase is waiting for the GM’s approval.',
  requestNotFound: 'Purchase request not found.',
  requestApproved: 'Purchase approved',
  requestDeclined: 'Purchase declined',
  requestCancelled: 'Purchase request cancelled',
  requestDecided: (status: string) => `This request has already been ${status}.`,
  requestNotYours: 'Only who asked for this purchase can cancel it.',
  requestBuyerGone: 'The buyer’s character or container no longer exists: decline the request instead.',
  requestBuyerLeft: 'The buyer’s character is no longer in this party: decline the request instead.',
  /** Why a request was declined when the GM removed its buyer from the party. */
  requesterGone: 'The buyer is no longer in the party.',
  /** Why a request went back on sale when the buyer's character was deleted. */
  requestCharacterDeleted: 'The buyer’s character was deleted.',
  /** Why a request went back on sale when the buyer's character was taken out of the party. */
  requestCharacterLeft: 'The buyer’s character is no longer in the party.',
  /** Why a request went back on sale when the container it was to go into was deleted. */
  requestContainerDeleted: 'The container this purchase was for was deleted.',
  /** Why a request went back on sale when the party container it was to be paid from was deleted. */
  requestPayerContainerDeleted: 'The container paying for this purchase was deleted.',
} as const;

/**
 * The shop's refusals of a sale that the server says in its own words and the web app shows as it receives
 * them: apart from `shopMessages`, so that the first load (which carries the contracts) does not carry them.
 */
export const shopSaleMessages = {
  /**
   * A sale whose total, rounded down once for the line, is 0 cp (one candle at half price): the shop does
   * not take it for nothing, as it does not take an unpriced item (`shopMessages.unpricedNoOffer`).
   */
  worthlessNoOffer:
    'The shop would pay less than 1 cp for this, so it cannot offer anything for it. Sell more of them at once, or keep it.',
  /**
   * A sale to a shop that gives the item away (100% off, or its own price 0): it never pays more than it
   * asks (`sellOfferCp`), so it pays nothing, and takes nothing for nothing.
   */
  givenAwayNoOffer:
    'The shop gives this item away, so it does not buy it back: it never pays more for an item than it asks.',
} as const;

/**
 * Beside a shop's modifiers (the template form, the shop's settings): the rule that caps them
 * (`sellOfferCp`). A sell modifier above the buy modifier, a discount or an own price below an item's value
 * would otherwise have the shop buy back for more than it sold, and players make coins by buying and selling
 * again. Apart from `shopMessages`, as `shopSaleMessages`, for the first load.
 */
export const shopPricingNotes = {
  sellCap:
    'The shop never pays more for an item than it asks for it: a sale fetches at most the price players pay here, discount and own price included.',
} as const;

export const shopTypes = [
  'general',
  'blacksmith',
  'armorer',
  'magic_shop',
  'apothecary',
  'tavern',
  'weapon_shop',
  'clothing',
  'jewelry',
  'books',
  'components',
  'custom',
] as const;
export type ShopType = (typeof shopTypes)[number];

export const shopTypeNames: Record<ShopType, string> = {
  general: 'General Store',
  blacksmith: 'Blacksmith',
  armorer: 'Armorer',
  magic_shop: 'Magic Shop',
  apothecary: 'Apothecary',
  tavern: 'Tavern',
  weapon_shop: 'Weapon Shop',
  clothing: 'Clothing Store',
  jewelry: 'Jewelry Shop',
  books: 'Book Store',
  components: 'Component Shop',
  custom: 'Custom Shop',
};

export const popularLocations = [
  'marketplace',
  'main_street',
  'docks',
  'nobles_district',
  'craftsman_quarter',
  'magic_district',
  'slums',
  'castle_grounds',
  'forest_edge',
  'mountain_pass',
] as const;

/**
 * A shop's location as people read it: a popular location's key as its words ("main_street" → "Main
 * Street"); a location of the GM's own as written. The app, a shared page and its preview say it alike.
 */
export function shopLocationLabel(location: string): string {
  if (!(popularLocations as readonly string[]).includes(location)) return location;
  return location
    .split('_')
    .map((word) => (word ? word[0]?.toUpperCase() + word.slice(1) : word))
    .join(' ');
}

export const shopTags = [
  'Equipment',
  'Weapons',
  'Armor',
  'Potions',
  'Scrolls',
  'Magical Items',
  'Tools',
  'Food',
  'Clothing',
  'Books',
  'Components',
  'Rare Items',
  'Custom',
] as const;

/** spec/02 §2 min_rating options. */
export const shopMinRatings = [4.5, 4.0, 3.5, 3.0, 2.5] as const;

/** spec/02 §9 defaults. */
export const SHOP_DEFAULT_BUY_MODIFIER = 1;
export const SHOP_DEFAULT_SELL_MODIFIER = 0.5;
export const SHOP_STOCK_THRESHOLDS = { low: 5, stocked: 20 } as const;
export const SHOP_CARD_MAX_TAGS = 3;

// ---------------------------------------------------------------------------------------------------
// Labels (spec/02 §4)
// ---------------------------------------------------------------------------------------------------

export type StockLabel = 'Empty' | 'Low Stock' | 'Stocked' | 'Well Stocked';
export function stockLabel(itemCount: number): StockLabel {
  if (itemCount <= 0) return 'Empty';
  if (itemCount <= SHOP_STOCK_THRESHOLDS.low) return 'Low Stock';
  if (itemCount <= SHOP_STOCK_THRESHOLDS.stocked) return 'Stocked';
  return 'Well Stocked';
}

export type BadgeColour = 'success' | 'info' | 'warning' | 'error' | 'neutral';

export function restockBadge(days: number | null | undefined): { label: string; colour: BadgeColour } {
  if (!days) return { label: 'Never', colour: 'error' };
  if (days === 1) return { label: 'Daily', colour: 'success' };
  if (days <= 7) return { label: `Every ${days} days`, colour: 'success' };
  if (days <= 30) return { label: `Every ${days} days`, colour: 'warning' };
  return { label: `Every ${days} days`, colour: 'neutral' };
}

export function popularityLabel(ratingsCount: number): string {
  if (ratingsCount >= 100) return 'Very Popular';
  if (ratingsCount >= 50) return 'Popular';
  if (ratingsCount >= 20) return 'Well Known';
  if (ratingsCount >= 5) return 'Some Reviews';
  return 'New';
}

export function ratingColour(rating: number): BadgeColour {
  if (rating >= 4.5) return 'success';
  if (rating >= 4) return 'info';
  if (rating >= 3) return 'warning';
  return 'error';
}

/** "Shop Buys"/"Shop Sells" badges: the change from 1 as +N%, -N% or Standard. */
export function modifierLabel(modifier: number): string {
  const percent = Math.round((modifier - 1) * 100);
  if (percent === 0) return 'Standard';
  return percent > 0 ? `+${percent}%` : `${percent}%`;
}

/** "N% OFF": the rate times 100, rounded. */
export function discountPercent(rate: number): number {
  return Math.round(rate * 100);
}

// ---------------------------------------------------------------------------------------------------
// Money (DESIGN §4): integer copper throughout; modifiers and rates become integer ten-thousandths
// ---------------------------------------------------------------------------------------------------

/** Modifiers and rates carry at most four decimals; as integers the arithmetic stays exact. */
export const RATE_SCALE = 10_000;
export function toBasisPoints(rate: number): number {
  return Math.round(rate * RATE_SCALE);
}

/** Rounds n / d to the nearest integer, halves up, exactly (BigInt: value × two scales can pass 2^53). */
function divideRounded(n: bigint, d: bigint): number {
  return Number((2n * n + d) / (2n * d));
}

/**
 * DESIGN §4: what a player pays for one unit: value × buy_modifier × (1 − discount_rate), rounded to the
 * nearest copper. An item with a price of its own replaces value × buy_modifier; the discount still
 * applies to it.
 */
export function buyPriceCp(input: {
  valueCp: number;
  buyModifier: number;
  discountRate: number;
  ownPriceCp?: number | null | undefined;
}): number {
  const discount = BigInt(RATE_SCALE - toBasisPoints(input.discountRate));
  if (input.ownPriceCp !== null && input.ownPriceCp !== undefined) {
    return divideRounded(BigInt(input.ownPriceCp) * discount, BigInt(RATE_SCALE));
  }
  const modifier = BigInt(toBasisPoints(input.buyModifier));
  return divideRounded(BigInt(input.valueCp) * modifier * discount, BigInt(RATE_SCALE * RATE_SCALE));
}

/** DESIGN §4: what the shop pays for one unit: value × sell_modifier, rounded down. */
export function sellPriceCp(input: { valueCp: number; sellModifier: number }): number {
  const modifier = BigInt(toBasisPoints(input.sellModifier));
  return Number((BigInt(input.valueCp) * modifier) / BigInt(RATE_SCALE));
}

/**
 * What the shop asks for one unit (`buyPriceCp`), or null when it has no price for it and refuses to sell
 * it: an unpriced item (`isUnpricedItem`: an SRD magic item nobody priced) has no value to go by, so only
 * the shop's own price for it sets one; without one a GM who stocks a Bag of Holding would give it away for
 * 0 cp. A priced item goes by its value or its own shop price, as before.
 */
export function askingPriceCp(input: {
  valueCp: number;
  buyModifier: number;
  discountRate: number;
  unpriced: boolean;
  ownPriceCp?: number | null | undefined;
}): number | null {
  if (input.unpriced && (input.ownPriceCp === null || input.ownPriceCp === undefined)) return null;
  return buyPriceCp(input);
}

/** A shop's prices for one item: its modifiers and discount, and its own price for the item if it has one. */
type ShopPricing = {
  valueCp: number;
  buyModifier: number;
  sellModifier: number;
  discountRate: number;
  unpriced: boolean;
  ownPriceCp?: number | null | undefined;
};

/**
 * What the shop offers for one unit, or null when it offers nothing and refuses the sale: an item's value
 * (`sellPriceCp`). An unpriced one (`isUnpricedItem`: an SRD magic item nobody priced) has no value to go
 * by, so the shop's own price for it stands in, rounded alike; without one it would buy a Bag of Holding
 * for nothing and shelve it at 0 cp. A priced item's own shop price sets what the shop sells it at, and so
 * caps what it pays: never more than it asks for the same item (`askingPriceCp`, its discount included),
 * or an own price below the value, or a sell modifier above the buy modifier, would buy back for more than
 * it sold, and a player would make coins by buying and selling again.
 */
export function sellOfferCp(input: ShopPricing): number | null {
  const asked = askingPriceCp(input);
  if (asked === null) return null;
  const goesBy = input.unpriced ? input.ownPriceCp : input.valueCp;
  if (goesBy === null || goesBy === undefined) return null;
  return Math.min(sellPriceCp({ valueCp: goesBy, sellModifier: input.sellModifier }), asked);
}

/**
 * DESIGN §4: what the shop pays for `quantity` of an item sold together: the value it goes by (as
 * `sellOfferCp`: an unpriced item's own shop price) × quantity × sell_modifier, rounded down once for the
 * whole line, exactly (BigInt). Twenty 5 cp arrows at 0.33 fetch 33 cp, where rounding each piece down
 * paid 20. Capped, as `sellOfferCp`, at what the shop asks for them (its price each × quantity, as a
 * purchase totals), so that buying a line and selling it back never makes coins. Null, as `sellOfferCp`,
 * when the shop has no price for an unpriced item. A line worth 0 cp (one candle at half price) is 0 here;
 * the sale refuses it (`shopSaleMessages.worthlessNoOffer`). Not used by the web app, which shows the
 * server's quote: it stays out of the first load.
 */
export function sellLineCp(input: ShopPricing & { quantity: number }): number | null {
  const asked = askingPriceCp(input);
  if (asked === null) return null;
  const valueCp = input.unpriced ? input.ownPriceCp : input.valueCp;
  if (valueCp === null || valueCp === undefined) return null;
  const modifier = BigInt(toBasisPoints(input.sellModifier));
  const line = (BigInt(valueCp) * BigInt(input.quantity) * modifier) / BigInt(RATE_SCALE);
  const cap = BigInt(asked) * BigInt(input.quantity);
  return Number(line < cap ? line : cap);
}

export type Purse = Record<Currency, number>;
export const emptyPurse = (): Purse => ({ cp: 0, sp: 0, ep: 0, gp: 0, pp: 0 });
const largestFirst = [...currencies].sort((a, b) => copperPer[b] - copperPer[a]);

export function purseValueCp(purse: Purse): number {
  return currencies.reduce((sum, c) => sum + purse[c] * copperPer[c], 0);
}

/**
 * Change in the largest coins (DESIGN §4). Electrum is left out: most tables never use it, and a
 * handful of silver reads better than one electrum piece.
 */
export function makeChange(copper: number): Purse {
  const purse = emptyPurse();
  let left = copper;
  for (const coin of largestFirst) {
    if (coin === 'ep') continue;
    purse[coin] = Math.floor(left / copperPer[coin]);
    left -= purse[coin] * copperPer[coin];
  }
  return purse;
}

export type PaymentPlan =
  | { ok: true; pay: Purse; paidCp: number; changeCp: number; change: Purse }
  | { ok: false; missingCp: number };

/**
 * Which coins a buyer hands over for `priceCp`: the largest coins that do not overpay, and if that
 * leaves a remainder, one more coin of the smallest denomination that covers it; the overpayment comes
 * back as change in the largest coins. Small change is kept where it can be.
 */
export function planPayment(purse: Purse, priceCp: number): PaymentPlan {
  const total = purseValueCp(purse);
  if (total < priceCp) return { ok: false, missingCp: priceCp - total };
  const pay = emptyPurse();
  let left = priceCp;
  for (const coin of largestFirst) {
    pay[coin] = Math.min(purse[coin], Math.floor(left / copperPer[coin]));
    left -= pay[coin] * copperPer[coin];
  }
  if (left > 0) {
    // Every denomination with coins left over is larger than the remainder (see the loop above).
    const cover = [...largestFirst]
      .reverse()
      .find((coin) => purse[coin] > pay[coin] && copperPer[coin] >= left);
    if (!cover) return { ok: false, missingCp: left };
    pay[cover] += 1;
    left -= copperPer[cover];
    // The covering coin may make smaller coins unnecessary: hand back those, smallest first.
    for (const coin of [...largestFirst].reverse()) {
      if (copperPer[coin] >= copperPer[cover]) break;
      const spare = Math.min(pay[coin], Math.floor(-left / copperPer[coin]));
      pay[coin] -= spare;
      left += spare * copperPer[coin];
    }
  }
  const paidCp = purseValueCp(pay);
  const changeCp = paidCp - priceCp;
  return { ok: true, pay, paidCp, changeCp, change: makeChange(changeCp) };
}

// ---------------------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------------------

const modifier = (message: string) =>
  numberInput(z.number({ error: message }).min(0, message).max(10, message).multipleOf(0.0001, message));

const shortText = (max: number) =>
  text({ error: 'Must be text' }).trim().max(max, `Must be at most ${max} characters`);

/** spec/02 §2 shop tags: kept as written, trimmed, unique regardless of case. */
export function normaliseShopTags(input: string | readonly string[]): string[] {
  const raw = typeof input === 'string' ? input.split(',') : input;
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const tag of raw.map((t) => t.trim()).filter((t) => t.length > 0)) {
    if (seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  return tags;
}

const tagList = z
  .union([z.array(tagText()).max(30), text().max(2000)], {
    error: 'Tags must be a list of words or a comma-separated string',
  })
  .transform(normaliseShopTags)
  .pipe(z.array(tagText()).max(30, 'At most 30 tags'));

const restockDays = numberInput(
  z
    .number({ error: 'Restock days must be a number' })
    .int('Restock days must be a whole number')
    .min(0, 'Restock days cannot be negative (0 means never)')
    .max(365, 'Restock days must be at most 365'),
);

const copperAmount = numberInput(
  z
    .number({ error: 'Price must be a number of copper pieces' })
    .int('Price must be a whole number of copper pieces')
    .min(0, 'Price cannot be negative')
    // MAX_ITEM_VALUE in pp: with MAX_STACK_QUANTITY, a stack's price stays an exact integer below 2^53.
    .max(MAX_ITEM_VALUE * copperPer.pp, 'A price can be at most 9,000,000 gp'),
);

const stockQuantity = numberInput(
  z
    .number({ error: 'Quantity must be a whole number' })
    .min(0, { error: 'Quantity cannot be negative', abort: true })
    .max(100_000, { error: 'Quantity can be at most 100,000', abort: true })
    // Bounds first: a number past them is refused for that alone (2^53 is whole, but not safe).
    .int('Quantity must be a whole number'),
);

const tradeQuantity = numberInput(
  z
    .number({ error: 'Quantity must be a whole number' })
    .min(1, { error: 'Quantity must be at least 1', abort: true })
    .max(100_000, { error: 'Quantity can be at most 100,000', abort: true })
    // Bounds first: a number past them is refused for that alone (2^53 is whole, but not safe).
    .int('Quantity must be a whole number'),
);

const shopName = nameText({ error: shopMessages.nameTooShort })
  .trim()
  .min(2, shopMessages.nameTooShort)
  .max(99, shopMessages.nameTooLong)
  .refine(hasVisibleText, shopMessages.nameTooShort);

const shopTemplateFields = {
  name: shopName,
  description: shortText(5000),
  owner: shortText(100),
  location: shortText(100),
  shop_type: z.enum(shopTypes, { error: 'Choose a shop type' }),
  buy_modifier: modifier(shopMessages.buyModifierRange),
  sell_modifier: modifier(shopMessages.sellModifierRange),
  default_restock_days: restockDays.nullable(),
  tag_list: tagList,
  visibility: z.enum(templateVisibilities, { error: 'Visibility must be private, unlisted or public' }),
  // A line of the shop's own name: one line, and not blank-looking (empty clears it).
  name_override: nameText({ error: 'Must be text' })
    .trim()
    .max(100, 'Must be at most 100 characters')
    .refine((name) => name === '' || hasVisibleText(name), 'Name cannot be blank')
    .nullable(),
  owner_override: shortText(100).nullable(),
  location_override: shortText(100).nullable(),
  description_override: shortText(5000).nullable(),
};

/** spec/02 §3 Shop template and §5 shop form. */
export const shopTemplateFormSchema = z.object({
  name: shopTemplateFields.name,
  description: shopTemplateFields.description.default(''),
  owner: shopTemplateFields.owner.default(''),
  location: shopTemplateFields.location.default(''),
  shop_type: shopTemplateFields.shop_type.default('general'),
  buy_modifier: shopTemplateFields.buy_modifier.default(SHOP_DEFAULT_BUY_MODIFIER),
  sell_modifier: shopTemplateFields.sell_modifier.default(SHOP_DEFAULT_SELL_MODIFIER),
  default_restock_days: shopTemplateFields.default_restock_days.default(null),
  tag_list: shopTemplateFields.tag_list.default([]),
  visibility: shopTemplateFields.visibility.default('private'),
  name_override: shopTemplateFields.name_override.optional(),
  owner_override: shopTemplateFields.owner_override.optional(),
  location_override: shopTemplateFields.location_override.optional(),
  description_override: shopTemplateFields.description_override.optional(),
});
export type ShopTemplateForm = z.infer<typeof shopTemplateFormSchema>;
export const shopTemplateCreateBodySchema = z.object({ shop_template: shopTemplateFormSchema });

export const shopTemplateUpdateSchema = z.object(
  Object.fromEntries(Object.entries(shopTemplateFields).map(([k, v]) => [k, v.optional()])) as {
    [K in keyof typeof shopTemplateFields]: z.ZodOptional<(typeof shopTemplateFields)[K]>;
  },
);
export type ShopTemplateUpdate = z.infer<typeof shopTemplateUpdateSchema>;
export const shopTemplateUpdateBodySchema = z.object({ shop_template: shopTemplateUpdateSchema });

/** A shop item: an item template with a quantity, an optional price of its own, and its restock level. */
export const shopItemFormSchema = z.object({
  item_template_id: entityId('Choose an item'),
  quantity: stockQuantity.default(1),
  /** In copper (DESIGN §4); null: priced from the item's value and the shop's modifiers. */
  price_cp: copperAmount.nullable().default(null),
  /** The stock a restock tops this item up to; null: its quantity. */
  restock_quantity: stockQuantity.nullable().default(null),
});
export type ShopItemForm = z.infer<typeof shopItemFormSchema>;
const wrapped = <T extends z.ZodType>(key: string, schema: T) =>
  z.preprocess(
    (body) =>
      body && typeof body === 'object' && key in body ? (body as Record<string, unknown>)[key] : body,
    schema,
  );
/** Accepts {shop_item: {...}} or the fields bare. */
export const shopItemCreateBodySchema = wrapped('shop_item', shopItemFormSchema);
export const shopItemUpdateSchema = z.object({
  quantity: stockQuantity.optional(),
  price_cp: copperAmount.nullable().optional(),
  restock_quantity: stockQuantity.nullable().optional(),
});
export const shopItemUpdateBodySchema = wrapped('shop_item', shopItemUpdateSchema);

export const shopRatingBodySchema = wrapped(
  'shop_rating',
  z.object({
    rating: numberInput(
      z
        .number({ error: 'Rating must be a number from 1 to 5' })
        .int('Rating must be a whole number from 1 to 5')
        .min(1, 'Rating must be a whole number from 1 to 5')
        .max(5, 'Rating must be a whole number from 1 to 5'),
    ),
  }),
);

const discountRate = numberInput(
  z
    .number({ error: 'Discount must be a number from 0 to 1' })
    .min(0, 'Discount must be from 0 to 1')
    .max(1, 'Discount must be from 0 to 1')
    .multipleOf(0.0001, 'Discount has at most 4 decimals'),
);

/** spec/02 §7 POST shop_instances {shop_instance}. Unset fields come from the template. */
export const shopInstanceCreateSchema = z.object({
  shop_template_id: entityId('Choose a shop template'),
  party_id: entityId('Choose a party'),
  name: shopName.optional(),
  description: shortText(5000).optional(),
  is_active: z.boolean().default(true),
  discount_rate: discountRate.default(0),
  buy_modifier: shopTemplateFields.buy_modifier.optional(),
  sell_modifier: shopTemplateFields.sell_modifier.optional(),
  restock_days: restockDays.nullable().optional(),
  /** Issue 10 §8: purchases here may be paid from the party stash's coins. */
  party_fund_allowed: z.boolean().optional(),
  /** Issue 10 §8: purchases above this many copper wait for the GM's approval; null: never. */
  approval_threshold_cp: copperAmount.nullable().optional(),
});
export type ShopInstanceCreate = z.infer<typeof shopInstanceCreateSchema>;
export const shopInstanceCreateBodySchema = z.object({ shop_instance: shopInstanceCreateSchema });

export const shopInstanceUpdateSchema = z.object({
  name: shopName.optional(),
  description: shortText(5000).optional(),
  is_active: z.boolean().optional(),
  discount_rate: discountRate.optional(),
  buy_modifier: shopTemplateFields.buy_modifier.optional(),
  sell_modifier: shopTemplateFields.sell_modifier.optional(),
  restock_days: restockDays.nullable().optional(),
  party_fund_allowed: z.boolean().optional(),
  approval_threshold_cp: copperAmount.nullable().optional(),
});
export type ShopInstanceUpdate = z.infer<typeof shopInstanceUpdateSchema>;
export const shopInstanceUpdateBodySchema = z.object({ shop_instance: shopInstanceUpdateSchema });

export const paymentSources = ['character', 'party'] as const;
export type PaymentSource = (typeof paymentSources)[number];

/**
 * spec/02 §3 Purchase payload (buyer_character_id, buyer_container_id) and the transfer form of §7
 * (item_instance_id, target_container_id, quantity): both names of the container are accepted.
 */
export const purchaseSchema = z
  .object({
    item_instance_id: entityId('Choose an item'),
    quantity: tradeQuantity.default(1),
    buyer_character_id: entityId('Choose a character'),
    buyer_container_id: entityId('Please select a destination')
      .optional()
      .describe(
        'The container that receives the goods (and pays, unless payment_source is party). Send it or target_container_id.',
      ),
    target_container_id: entityId('Please select a destination')
      .optional()
      .describe(
        'Another name of buyer_container_id (the transfer form’s field): one of the two is required.',
      ),
    /** Issue 10 §8: "party" pays from the party stash's coins, when the shop allows it. */
    payment_source: z
      .enum(paymentSources, { error: 'Payment source must be character or party' })
      .default('character'),
    /** Which party stash pays (payment_source "party"); the party's first stash when left out. */
    payer_container_id: entityId('Choose the party stash that pays').optional(),
    expected_unit_price_cp: copperAmount
      .optional()
      .describe(
        'The price each, in copper, the buyer agreed to (calculate_buy_price shows it). If the shop asks another price by the time the purchase arrives (the GM repriced it), the purchase is refused with 409 CONFLICT and nothing changes. Left out, the shop’s current price applies.',
      ),
  })
  .transform(({ target_container_id, ...rest }, ctx) => {
    const container = rest.buyer_container_id ?? target_container_id;
    if (!container) {
      ctx.addIssue({ code: 'custom', path: ['buyer_container_id'], message: 'Please select a destination' });
      return z.NEVER;
    }
    // The buyer's own container pays a character purchase: a stash named here would be silently ignored.
    if (rest.payment_source === 'character' && rest.payer_container_id !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['payer_container_id'],
        message: shopMessages.payerWithoutPartyFund,
      });
      return z.NEVER;
    }
    return { ...rest, buyer_container_id: container };
  });
export type Purchase = z.infer<typeof purchaseSchema>;
export const purchaseBodySchema = z.object({ purchase: purchaseSchema });

/** Issue 11 §8: the proceeds of one sale are shared among at most this many characters. */
export const MAX_SALE_SPLIT = 50;

export const sellSchema = z
  .object({
    item_instance_id: entityId('Choose an item'),
    quantity: tradeQuantity.default(1),
    /** Required, except for the GM's split sale from the party stash (no character sells then). */
    seller_character_id: entityId('Choose a character').optional(),
    seller_container_id: entityId('Choose the source container').optional(),
    source_container_id: entityId('Choose the source container').optional(),
    /**
     * Issue 11 §8 (the GM only): the proceeds are shared evenly among these characters of the party, each
     * share paid into the character's main container, instead of landing with the seller.
     */
    split_among: z
      .array(entityId('Choose characters of this party'), { error: 'Choose the characters to share with' })
      .min(1, 'Choose at least one character')
      .max(MAX_SALE_SPLIT, `Share among at most ${MAX_SALE_SPLIT} characters`)
      .refine((ids) => new Set(ids).size === ids.length, 'Choose each character once')
      .optional(),
  })
  .transform(({ source_container_id, ...rest }, ctx) => {
    const container = rest.seller_container_id ?? source_container_id;
    const noSeller = !rest.seller_character_id && !rest.split_among;
    if (noSeller) {
      ctx.addIssue({ code: 'custom', path: ['seller_character_id'], message: 'Choose a character' });
    }
    if (!container) {
      ctx.addIssue({
        code: 'custom',
        path: ['seller_container_id'],
        message: 'Choose the source container',
      });
    }
    if (noSeller || !container) return z.NEVER;
    return { ...rest, seller_container_id: container };
  });
export type Sell = z.infer<typeof sellSchema>;
export const sellBodySchema = z.object({ sell: sellSchema });

/** spec/02 §3 Stock payload: an item of the GM's moved into the shop, optionally with its own price. */
export const stockSchema = z.object({
  item_id: entityId('Choose an item'),
  source_container_id: entityId('Choose the source container'),
  quantity: tradeQuantity.optional(),
  /** In copper; null clears the shop's own price for this item. */
  price: copperAmount.nullable().optional(),
});
export type Stock = z.infer<typeof stockSchema>;
export const stockBodySchema = wrapped('stock', stockSchema);

/**
 * Stock taken back off the shelf (GM or manager) into a container of the shop's party the user may act on:
 * `quantity` of the shelf line `item_id` sits on (the same item at the same price, as the shop page lists
 * it), from that stack first, then from the line's other stacks. Quantity left out: the named stack.
 */
export const unstockSchema = z.object({
  item_id: entityId('Choose an item of the shop').describe(
    'A stack on the shelf; more than it holds is taken from the other stacks of its shelf line.',
  ),
  target_container_id: entityId('Choose the container to put it in'),
  quantity: tradeQuantity.optional(),
});
export type Unstock = z.infer<typeof unstockSchema>;
export const unstockBodySchema = wrapped('unstock', unstockSchema);

/**
 * The shop's own price for one item of its stock, set on its shelf line (GM or manager): what it sells every
 * one of them at before its discount, and what it offers for an unpriced one before its sell modifier.
 */
export const shopPriceSchema = z.object({
  price_cp: copperAmount
    .nullable()
    .describe('In copper; null clears the shop’s own price, and the item goes by its value again.'),
});
export type ShopPrice = z.infer<typeof shopPriceSchema>;
/** Accepts {price: {price_cp}} or the field bare, as the stock and unstock bodies do. */
export const shopPriceBodySchema = wrapped('price', shopPriceSchema);

export const priceQuerySchema = z.object({ quantity: tradeQuantity.default(1) });

// ---------------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------------

const tagsQuery = z
  .union([text().max(1000), z.array(text().max(60)).max(20)], {
    error: 'Tags must be comma-separated',
  })
  .transform(normaliseShopTags);

export const shopSortKeys = ['name', 'rating', 'popularity', 'created_at', 'updated_at'] as const;
const includeQuery = z
  .union([text().max(200), z.array(text().max(50)).max(10)])
  .transform((v) =>
    (typeof v === 'string' ? v.split(',') : v).map((s) => s.trim()).filter((s) => s.length > 0),
  )
  .pipe(z.array(z.enum(['shop_items', 'tags'], { error: 'include takes shop_items and tags' })));

/**
 * spec/02 §2 shop filters and §7 list parameters. `sort`/`direction` and `sort_by`/`sort_order` are the
 * same thing; default name ascending. Without `visibility`: my templates and every public one.
 */
export const shopTemplateListQuerySchema = z.preprocess(
  unwrapFilters,
  z
    .object({
      page: numberInput(z.number().int().min(1)).default(1),
      per_page: numberInput(z.number().int().min(1).max(100)).default(20),
      search: shortText(200).optional(),
      shop_type: z.enum(shopTypes, { error: 'Unknown shop type' }).optional(),
      location: shortText(100).optional(),
      min_rating: numberInput(z.number().min(0).max(5)).optional(),
      visibility: z
        .enum(templateVisibilities, { error: 'Visibility must be private, unlisted or public' })
        .optional(),
      party_id: entityId('party_id must be a party id').optional(),
      mine: z
        .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
        .transform((v) => v === true || v === 'true' || v === '1')
        .optional(),
      tags: tagsQuery.optional(),
      sort: z.enum(shopSortKeys).optional(),
      sort_by: z.enum(shopSortKeys).optional(),
      direction: z.enum(['asc', 'desc']).optional(),
      sort_order: z.enum(['asc', 'desc']).optional(),
      include: includeQuery.optional(),
    })
    .transform(({ sort, sort_by, direction, sort_order, ...rest }) => ({
      ...rest,
      sort: sort_by ?? sort ?? ('name' as const),
      direction: sort_order ?? direction ?? ('asc' as const),
    })),
);
export type ShopTemplateListQuery = z.infer<typeof shopTemplateListQuerySchema>;

export const shopInstanceListQuerySchema = z.preprocess(
  unwrapFilters,
  z.object({
    page: numberInput(z.number().int().min(1)).default(1),
    per_page: numberInput(z.number().int().min(1).max(100)).default(20),
    search: shortText(200).optional(),
    shop_type: z.enum(shopTypes, { error: 'Unknown shop type' }).optional(),
    location: shortText(100).optional(),
    party_id: entityId('party_id must be a party id').optional(),
    is_active: z
      .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
      .transform((v) => v === true || v === 'true' || v === '1')
      .optional(),
  }),
);
export type ShopInstanceListQuery = z.infer<typeof shopInstanceListQuerySchema>;

export const shopSalesQuerySchema = z.object({
  page: numberInput(z.number().int().min(1)).default(1),
  per_page: numberInput(z.number().int().min(1).max(200)).default(50),
});

// ---------------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------------

export const shopItemSchema = z.object({
  id: z.string(),
  shop_template_id: z.string(),
  item_template_id: z.string(),
  /**
   * Null when the item template is private to someone other than the reader: it exists only for its
   * creator, so neither its fields nor its prices are told (and `available` is false).
   */
  item_template: itemTemplateSchema.nullable(),
  quantity: z.number().int(),
  price_cp: z.number().int().nullable(),
  restock_quantity: z.number().int().nullable(),
  /**
   * What a player pays for one at the template's buy modifier, without a party discount (`askingPriceCp`);
   * null: unpriced, and without a price here, not sold.
   */
  buy_price_cp: z.number().int().nullable(),
  /** What the shop pays for one (`sellOfferCp`); null: unpriced, and without a price here, not bought. */
  sell_price_cp: z.number().int().nullable(),
  /**
   * False once its item template is deleted, or private to someone else: deploying leaves the line out, and
   * a deployed shop no longer restocks a deleted one.
   */
  available: z.boolean(),
});
export type ShopItem = z.infer<typeof shopItemSchema>;

export const shopTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.string(),
  location: z.string(),
  description: z.string(),
  shop_type: z.enum(shopTypes),
  shop_type_name: z.string(),
  average_rating: z.number().nullable(),
  ratings_count: z.number().int(),
  /** The signed-in user's own rating, if any. */
  my_rating: z.number().int().nullable(),
  buy_modifier: z.number(),
  sell_modifier: z.number(),
  default_restock_days: z.number().int().nullable(),
  tag_list: z.array(z.string()),
  visibility: z.enum(templateVisibilities),
  name_override: z.string().nullable(),
  owner_override: z.string().nullable(),
  location_override: z.string().nullable(),
  description_override: z.string().nullable(),
  display_name: z.string(),
  display_owner: z.string(),
  display_location: z.string(),
  display_description: z.string(),
  items_count: z.number().int(),
  /** Present with include=shop_items (and always on the detail). */
  shop_items: z.array(shopItemSchema).optional(),
  creator_id: z.string().nullable(),
  creator_name: z.string().nullable(),
  is_system: z.boolean(),
  is_owner: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ShopTemplate = z.infer<typeof shopTemplateSchema>;

export const shopTemplateListResponseSchema = z.object({
  status: z.literal('success'),
  data: z.array(shopTemplateSchema),
  meta: pageMetaSchema,
  message: z.string().optional(),
});

/** An item on a shop's shelf: the stack and what it costs here. */
export const shopStockItemSchema = itemInstanceSchema.extend({
  /** What a player pays for one (`askingPriceCp`); null: unpriced, and without a price here, not sold. */
  buy_price_cp: z.number().int().nullable(),
  /** What the shop pays for one (`sellOfferCp`); null: unpriced, and without a price here, not bought. */
  sell_price_cp: z.number().int().nullable(),
  has_own_price: z.boolean(),
});
export type ShopStockItem = z.infer<typeof shopStockItemSchema>;

/**
 * A shop as the lists show it (spec/02 §2 shop card: "inventory count with stock label", from
 * `items_count`): everything but its stock and own prices, which only the shop itself sends. A year of
 * play put 100 shops of 500 stacks in one party; their stock in the list was 31 MB.
 */
export const shopInstanceSummarySchema = z.object({
  id: z.string(),
  shop_template_id: z.string().nullable(),
  party_id: z.string(),
  name: z.string(),
  description: z.string(),
  owner: z.string(),
  location: z.string(),
  shop_type: z.enum(shopTypes),
  shop_type_name: z.string(),
  is_active: z.boolean(),
  discount_rate: z.number(),
  buy_modifier: z.number(),
  sell_modifier: z.number(),
  currency: z.enum(currencies),
  restock_days: z.number().int().nullable(),
  next_restock_at: z.string().nullable(),
  tag_list: z.array(z.string()),
  shop_template: z.object({ id: z.string(), name: z.string() }).nullable(),
  party: z.object({ id: z.string(), name: z.string() }),
  /** The shop's stock container; its stacks come with the shop itself (`shopInstanceSchema`). */
  container: z.object({ id: z.string(), name: z.string() }),
  items_count: z.number().int(),
  /** GM and managers: stock, restock, open, close, edit. */
  can_manage: z.boolean(),
  /** Members with a character (not observers): buy and sell. */
  can_trade: z.boolean(),
  /** Issue 10 §8 (always sent; optional only so older fixtures still type-check). */
  party_fund_allowed: z.boolean().optional(),
  approval_threshold_cp: z.number().int().nullable().optional(),
  /** Pending purchase requests: all of them for the GM and managers, the caller's own for others. */
  pending_requests_count: z.number().int().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ShopInstanceSummary = z.infer<typeof shopInstanceSummarySchema>;

/** One shop with its stock (spec/02 §3 "container with item_instances"): GET shop_instances/{id}. */
export const shopInstanceSchema = shopInstanceSummarySchema.extend({
  container: z.object({
    id: z.string(),
    name: z.string(),
    item_instances: z.array(shopStockItemSchema),
  }),
  /**
   * The shop's own prices in copper by item template id (DESIGN §4 `prices`): what it sells those items at
   * before its discount, and what it offers for an unpriced one (`sellOfferCp`) before its sell modifier.
   * Always sent; optional only so older fixtures still type-check.
   */
  own_prices_cp: z.record(z.string(), z.number().int()).optional(),
});
export type ShopInstance = z.infer<typeof shopInstanceSchema>;

/**
 * What a shop pays for one of a player's items (`sellOfferCp`), from the shop and the item as the API sends
 * them: the web app's sell list shows it, and it is the figure the server's quote (calculate_sell_price)
 * and the sale give for one, capped alike at what the shop asks. Null: the shop offers nothing for it.
 */
export function itemSellOfferCp(
  shop: Pick<ShopInstance, 'buy_modifier' | 'sell_modifier' | 'discount_rate' | 'own_prices_cp'>,
  item: Pick<ItemInstance, 'value_cp' | 'item_template_id' | 'item_template' | 'instance_data'>,
): number | null {
  return sellOfferCp({
    valueCp: item.value_cp,
    buyModifier: shop.buy_modifier,
    sellModifier: shop.sell_modifier,
    discountRate: shop.discount_rate,
    unpriced: isUnpricedItem(item),
    ownPriceCp: shop.own_prices_cp?.[item.item_template_id],
  });
}

export const shopInstanceListSummarySchema = z.object({
  active: z.number().int(),
  inactive: z.number().int(),
  /** The sum of the shops' `items_count`. */
  items: z.number().int(),
});
export type ShopInstanceListSummary = z.infer<typeof shopInstanceListSummarySchema>;

export const shopInstanceListResponseSchema = z.object({
  status: z.literal('success'),
  data: z.object({ instances: z.array(shopInstanceSummarySchema) }),
  meta: pageMetaSchema.extend({
    total: z.number().int(),
    /**
     * spec/02 §2 shop instances summary (active, inactive, total items) over every shop the filters match,
     * not only this page's.
     */
    summary: shopInstanceListSummarySchema,
  }),
});

export const purseSchema = z.object({
  cp: z.number().int(),
  sp: z.number().int(),
  ep: z.number().int(),
  gp: z.number().int(),
  pp: z.number().int(),
});

export const priceQuoteSchema = z.object({
  item_instance_id: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  unit_price_cp: z.number().int(),
  total_price_cp: z.number().int(),
  /** "1 gp 5 sp". */
  formatted: z.string(),
  has_own_price: z.boolean(),
  discount_rate: z.number(),
  modifier: z.number(),
});
export type PriceQuote = z.infer<typeof priceQuoteSchema>;

// ---------------------------------------------------------------------------------------------------
// Issue 10 §8: purchase requests (shopping while the GM is away)
// ---------------------------------------------------------------------------------------------------

export const shopRequestStatuses = ['pending', 'approved', 'declined', 'cancelled'] as const;
export type ShopRequestStatus = (typeof shopRequestStatuses)[number];

export const shopRequestSchema = z.object({
  id: z.string(),
  shop_instance_id: z.string(),
  party_id: z.string(),
  status: z.enum(shopRequestStatuses),
  requester: z.object({ id: z.string().nullable(), name: z.string() }),
  character: z.object({ id: z.string().nullable(), name: z.string() }),
  buyer_container_id: z.string().nullable(),
  payment_source: z.enum(paymentSources),
  payer_container_id: z.string().nullable(),
  /** The shop's container holding the goods while the request waits. */
  hold_container_id: z.string().nullable(),
  item_template_id: z.string().nullable(),
  item_name: z.string(),
  quantity: z.number().int(),
  /** Fixed when the request was made: approval charges this price. */
  unit_price_cp: z.number().int(),
  total_price_cp: z.number().int(),
  formatted: z.string(),
  decided_by: z.object({ id: z.string().nullable(), name: z.string() }).nullable(),
  decided_at: z.string().nullable(),
  reason: z.string(),
  /** The caller may approve or decline it (GM and managers) / cancel it (who asked). */
  can_decide: z.boolean(),
  can_cancel: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ShopRequest = z.infer<typeof shopRequestSchema>;

export const shopRequestListQuerySchema = z.object({
  status: z.enum([...shopRequestStatuses, 'all'], { error: 'Unknown request status' }).default('pending'),
});
/** An optional body: decline and cancel may be sent with none at all. */
export const shopRequestDecisionSchema = z.preprocess(
  (value) => value ?? {},
  z.object({
    reason: text({ error: 'Reason must be text' }).trim().max(500, 'Reason is too long').optional(),
  }),
);
export type ShopRequestDecision = z.infer<typeof shopRequestDecisionSchema>;
export const tradeResultSchema = z.object({
  kind: z.enum(['purchase', 'sale']),
  message: z.string(),
  quantity: z.number().int(),
  unit_price_cp: z.number().int(),
  total_price_cp: z.number().int(),
  /** Coins handed over (purchase) and given back as change, or the coins received (sale). */
  paid: purseSchema,
  change: purseSchema,
  received: purseSchema,
  item_instances: z.array(itemInstanceSchema),
  transaction_ids: z.array(z.string()),
  /** Who paid: the buyer's container or the party stash (issue 10 §8). */
  payment_source: z.enum(paymentSources).optional(),
  /** Set when the purchase is above the shop's approval threshold and waits for the GM (HTTP 202). */
  request: shopRequestSchema.nullable().optional(),
});
export type TradeResult = z.infer<typeof tradeResultSchema>;

export const restockScheduleSchema = z.object({
  shop_instance_id: z.string(),
  restock_days: z.number().int().nullable(),
  label: z.string(),
  next_restock_at: z.string().nullable(),
  last_restock_at: z.string().nullable(),
});
export type RestockSchedule = z.infer<typeof restockScheduleSchema>;

export const restockResultSchema = z.object({
  shop_instance_id: z.string(),
  added: z.array(z.object({ item_template_id: z.string(), name: z.string(), quantity: z.number().int() })),
  next_restock_at: z.string().nullable(),
});

export const restockStatusSchema = z.object({
  shop_template_id: z.string(),
  default_restock_days: z.number().int().nullable(),
  label: z.string(),
  items: z.array(
    z.object({
      shop_item_id: z.string(),
      item_template_id: z.string(),
      /** Null for an item private to someone other than the reader, as `shop_items[].item_template`. */
      name: z.string().nullable(),
      quantity: z.number().int(),
      restock_quantity: z.number().int(),
    }),
  ),
  /** Shops deployed from it in the caller's parties. */
  instances: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      party_id: z.string(),
      restock_days: z.number().int().nullable(),
      next_restock_at: z.string().nullable(),
    }),
  ),
});

export const shopContainerSchema = z.object({
  id: z.string(),
  name: z.string(),
  items_count: z.number().int(),
  owner: z.object({ type: z.literal('shop_instance'), id: z.string(), name: z.string() }),
});

export const shopSalesResponseSchema = z.object({
  status: z.literal('success'),
  data: z.object({ transactions: z.array(transactionSchema) }),
  meta: pageMetaSchema,
});

export const shopRequestResultSchema = z.object({
  request: shopRequestSchema,
  /** The completed purchase, on approval. */
  trade: tradeResultSchema.nullable(),
});
export type ShopRequestResult = z.infer<typeof shopRequestResultSchema>;
