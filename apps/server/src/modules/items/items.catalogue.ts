import { readFileSync } from 'node:fs';
import {
  CATEGORY_TAG_PREFIX,
  CURRENCY_TAG,
  type Currency,
  coinSystemKey,
  currencies,
} from '@haversack/contracts';
import { z } from 'zod';
import type { itemTemplates } from '../../db/schema/items.js';

/** A system template as the seed upserts it: keyed by `system_key`, public, without a creator. */
export type SystemTemplate = Required<
  Pick<
    typeof itemTemplates.$inferInsert,
    | 'systemKey'
    | 'name'
    | 'description'
    | 'weight'
    | 'baseValue'
    | 'currency'
    | 'visibility'
    | 'stackSize'
    | 'metadata'
    | 'tags'
  >
>;

export const SRD_SOURCE = 'SRD 5.1';

/**
 * Metadata keys only the system writes: the seed (`source`, `priced`, `denomination`, `bundle_size`) and
 * duplicate (`duplicated_from`), plus `system_key`, the catalogue's own key (a column, never metadata). A
 * user's create or update drops them, as the seed's values mean something: `priced: false` reads
 * "Unpriced" and leaves value searches, `source: "SRD 5.1"` says the catalogue wrote it.
 */
export const SYSTEM_METADATA_KEYS: readonly string[] = [
  'source',
  'priced',
  'denomination',
  'bundle_size',
  'duplicated_from',
  'system_key',
];

/** DESIGN §4: the five coins are public templates tagged `currency`, unlimited stacks, 0.02 lb each. */
const coins: { currency: Currency; name: string; description: string }[] = [
  { currency: 'cp', name: 'Copper piece', description: 'A copper coin. 10 cp = 1 sp; 100 cp = 1 gp.' },
  { currency: 'sp', name: 'Silver piece', description: 'A silver coin. 1 sp = 10 cp; 10 sp = 1 gp.' },
  { currency: 'ep', name: 'Electrum piece', description: 'An electrum coin. 1 ep = 5 sp; 2 ep = 1 gp.' },
  { currency: 'gp', name: 'Gold piece', description: 'A gold coin. 1 gp = 10 sp = 100 cp.' },
  { currency: 'pp', name: 'Platinum piece', description: 'A platinum coin. 1 pp = 10 gp.' },
];

export function coinTemplates(): SystemTemplate[] {
  return coins.map((coin) => ({
    systemKey: coinSystemKey(coin.currency),
    name: coin.name,
    description: coin.description,
    weight: 0.02,
    baseValue: 1,
    currency: coin.currency,
    visibility: 'public',
    stackSize: 0,
    metadata: { category: 'currency', denomination: coin.currency, source: 'Haversack' },
    tags: [CURRENCY_TAG, `${CATEGORY_TAG_PREFIX}currency`],
  }));
}

/** One record of data/srd-5.1-items.json (see data/LICENSE-NOTICE.md for how it was derived). */
const srdRecordSchema = z.object({
  name: z.string().min(1),
  category: z.string().min(1),
  description: z.string(),
  weight: z.number().min(0),
  cost: z.object({ amount: z.number().positive(), currency: z.enum(currencies) }).nullable(),
  rarity: z.string().nullable(),
  requires_attunement: z.boolean(),
  tags: z.array(z.string()),
  stack_size: z.number().int().min(0),
  source: z.literal(SRD_SOURCE),
});
export type SrdRecord = z.infer<typeof srdRecordSchema>;

export function loadSrdRecords(): SrdRecord[] {
  const file = new URL('./data/srd-5.1-items.json', import.meta.url);
  return z.array(srdRecordSchema).parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** Stable across renames: the key is made from the upstream name, never from the shown one. */
export function srdSystemKey(upstreamName: string): string {
  return `srd:${upstreamName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`;
}

/**
 * DESIGN §4: base_value is an integer in the template's currency, and the SRD sling bullet costs 0.2 cp.
 * It is carried as the bundle the SRD sells, "Sling bullets (20)" at 4 cp and 1.5 lb, in unlimited
 * stacks, so that no price is ever a fraction of a copper piece.
 */
const bundles: Record<string, { name: string; count: number }> = {
  'Sling bullet': { name: 'Sling bullets (20)', count: 20 },
};

/**
 * Prices the SRD gives that the upstream record lacks (data/LICENSE-NOTICE.md, "Potion of Healing"): the
 * adventuring-gear table sells a potion of healing at 50 gp and ½ lb, but upstream keeps only the magic
 * item, unpriced. Unpriced, a shop would buy it back for nothing and a hoard would leave it out of its worth.
 */
const srdGearPrices: Record<string, { cost: NonNullable<SrdRecord['cost']>; weight: number }> = {
  'Potion of Healing': { cost: { amount: 50, currency: 'gp' }, weight: 0.5 },
};

/**
 * Where the upstream record contradicts the SRD's own tables (checked against SRD 5.1's equipment chapter):
 * - caltrops and iron spikes were priced per piece (a twentieth of the 1 gp bag of 20, a tenth of the 1 gp
 *   bundle of 10) but kept the whole bag's or bundle's weight (2 lb, 5 lb);
 * - darts and javelins are thrown in handfuls and bought by the dozen: one stack, as arrows are, not ten;
 * - barding costs four times its armour (ring mail 30 gp: 120 gp, where upstream dropped a zero);
 * - the tack table weighs an exotic saddle 40 lb, and the waterborne-vehicles text a rowboat 100 lb.
 */
const srdCorrections: Record<string, Partial<Pick<SrdRecord, 'weight' | 'stack_size' | 'cost'>>> = {
  Caltrops: { weight: 0.1, stack_size: 20 },
  'Spike, iron': { weight: 0.5 },
  Dart: { stack_size: 20 },
  Javelin: { stack_size: 10 },
  'Barding: Ring mail': { cost: { amount: 120, currency: 'gp' } },
  'Saddle, Exotic': { weight: 40 },
  Rowboat: { weight: 100 },
};

/**
 * Upstream gives magic items no weight, but many say theirs ("The bag weighs 15 pounds, regardless of its
 * contents"): that weight, in pounds (an ounce counted as 0.06), or undefined when the text states none.
 */
export function statedWeight(description: string): number | undefined {
  const fraction = /\bweighs? (\d+)\/(\d+) pounds?\b/.exec(description);
  if (fraction) return Math.round((Number(fraction[1]) / Number(fraction[2])) * 100) / 100;
  const whole = /\bweighs? (\d+(?:\.\d+)?) pounds?\b/.exec(description);
  if (whole) return Number(whole[1]);
  if (/\bweighs? an ounce\b/.test(description)) return 0.06;
  return undefined;
}

/**
 * The one kind of weapon or armour a magic item's first line names ("Weapon (dagger), rare", "Armor
 * (plate), legendary"), or undefined when it names a choice ("any sword", "medium or heavy") or is neither.
 */
export function namedBaseKind(description: string): string | undefined {
  const kind = /^(?:Weapon|Armor) \(([^)]+)\)/.exec(description)?.[1];
  if (!kind || /\bany\b|,|\bor\b/.test(kind)) return undefined;
  return kind;
}

/**
 * Upstream gives a magic weapon or armour no weight, so a Dagger of Venom or Dwarven Plate weighed nothing in
 * a pack (screen review). One that names its kind weighs what the catalogue's item of that kind weighs
 * ("plate" is Plate, "studded leather" Studded leather armor); one that weighs itself in its text, or names
 * a choice of kinds, keeps its weight.
 */
function weighMagicByKind(records: SrdRecord[], byName: Map<string, SystemTemplate>): void {
  const byLowerName = new Map([...byName].map(([name, template]) => [name.toLowerCase(), template]));
  for (const record of records) {
    const magic = byName.get(record.name);
    if (!magic || record.rarity === null || magic.weight !== 0) continue;
    const kind = namedBaseKind(record.description)?.toLowerCase();
    if (!kind) continue;
    const base = byLowerName.get(kind) ?? byLowerName.get(`${kind} armor`);
    if (base && base.metadata.rarity === null) magic.weight = base.weight;
  }
}

/** The SRD's equipment packs (Burglar's Pack, Explorer's Pack, ...): their tag in the data. */
export const EQUIPMENT_PACK_TAG = 'equipment-packs';

/** One line of a pack's contents: "10 × Torch" is 10 of the catalogue's "Torch". */
export interface PackContent {
  count: number;
  name: string;
}

/**
 * What an equipment pack holds, read from its "Contains: a, 5 × b, ..." description against the catalogue's
 * names. A name may hold commas itself ("Lantern, hooded", "Ball bearings (bag of 1,000)"), so the pieces
 * between commas are joined into the longest catalogue name that starts there. A piece no catalogue name
 * accounts for throws: a pack is never weighed by a guess.
 */
export function packContents(
  packName: string,
  description: string,
  names: ReadonlySet<string>,
): PackContent[] {
  const list = /^Contains: (.+)\.$/.exec(description.trim());
  if (!list?.[1]) throw new Error(`SRD pack "${packName}" has no "Contains: ..." line to weigh it by`);
  const pieces = list[1].split(', ');
  const contents: PackContent[] = [];
  for (let start = 0; start < pieces.length; ) {
    let found: { content: PackContent; end: number } | undefined;
    for (let end = pieces.length; end > start && !found; end--) {
      const entry = pieces.slice(start, end).join(', ');
      const counted = /^(\d+) × (.+)$/.exec(entry);
      const name = counted?.[2] ?? entry;
      if (names.has(name)) found = { content: { count: Number(counted?.[1] ?? 1), name }, end };
    }
    if (!found) {
      throw new Error(`SRD pack "${packName}" contains "${pieces[start]}", which is no catalogue item`);
    }
    contents.push(found.content);
    start = found.end;
  }
  return contents;
}

/**
 * The SRD lists what an equipment pack holds but not what it weighs, and upstream leaves the weight at 0,
 * so a Burglar's Pack put in a backpack weighed nothing. Each pack weighs what its contents weigh in this
 * catalogue (after the corrections above), in hundredths of a pound as every weight is kept
 * (data/LICENSE-NOTICE.md). `byName` holds the seeded templates by their upstream names.
 */
function weighPacks(records: SrdRecord[], byName: Map<string, SystemTemplate>): void {
  const names = new Set(byName.keys());
  for (const record of records) {
    if (!record.tags.includes(EQUIPMENT_PACK_TAG)) continue;
    const pack = byName.get(record.name);
    if (!pack) throw new Error(`SRD pack "${record.name}" is not in the catalogue`);
    let pounds = 0;
    for (const { count, name } of packContents(record.name, record.description, names)) {
      const content = byName.get(name);
      // A pack or a bundle (Sling bullets (20)) is not weighed per piece: counting one would be wrong.
      if (!content || content.tags.includes(EQUIPMENT_PACK_TAG) || content.metadata.bundle_size) {
        throw new Error(`SRD pack "${record.name}" contains "${name}", which cannot be weighed`);
      }
      pounds += count * content.weight;
    }
    pack.weight = Math.round(pounds * 100) / 100;
  }
}

export function srdTemplate(upstream: SrdRecord): SystemTemplate {
  const gearPrice = upstream.cost === null ? srdGearPrices[upstream.name] : undefined;
  const corrected = { ...upstream, ...srdCorrections[upstream.name] };
  // Magic items only: a vehicle's text may weigh another vehicle ("A rowboat weighs 100 pounds" is in the
  // keelboat's too).
  const stated =
    corrected.weight === 0 && corrected.rarity !== null ? statedWeight(corrected.description) : undefined;
  const weighed = stated === undefined ? corrected : { ...corrected, weight: stated };
  const record = gearPrice ? { ...weighed, ...gearPrice } : weighed;
  const bundle = bundles[record.name];
  const tags = [...new Set([...record.tags, `${CATEGORY_TAG_PREFIX}${record.category}`])];
  const metadata: Record<string, unknown> = {
    category: record.category,
    rarity: record.rarity,
    requires_attunement: record.requires_attunement,
    source: SRD_SOURCE,
    priced: record.cost !== null,
  };
  let cost = record.cost ?? { amount: 0, currency: 'gp' as Currency };
  let weight = record.weight;
  let stackSize = record.stack_size;
  let description = record.description;
  if (bundle) {
    cost = { amount: Math.round(cost.amount * bundle.count), currency: cost.currency };
    weight = Math.round(weight * bundle.count * 10_000) / 10_000;
    stackSize = 0;
    description = `A bundle of ${bundle.count}. ${description}`;
    metadata.bundle_size = bundle.count;
    tags.push('bundle');
  }
  if (!Number.isInteger(cost.amount)) {
    throw new Error(`SRD item "${record.name}" costs ${cost.amount} ${cost.currency}, not a whole coin`);
  }
  return {
    systemKey: srdSystemKey(record.name),
    name: bundle?.name ?? record.name,
    description,
    weight,
    baseValue: cost.amount,
    currency: cost.currency,
    visibility: 'public',
    stackSize,
    metadata,
    tags,
  };
}

/** The whole seeded catalogue: 5 coins and the 578 SRD 5.1 items. */
export function systemTemplates(): SystemTemplate[] {
  const records = loadSrdRecords();
  const byName = new Map(records.map((record) => [record.name, srdTemplate(record)]));
  if (byName.size !== records.length) throw new Error('two SRD records share a name');
  weighPacks(records, byName);
  weighMagicByKind(records, byName);
  const templates = [...coinTemplates(), ...byName.values()];
  const keys = new Set(templates.map((t) => t.systemKey));
  if (keys.size !== templates.length) throw new Error('two system templates share a system_key');
  return templates;
}
