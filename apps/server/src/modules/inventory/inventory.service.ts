import {
  type Container,
  type ContainerCreateWithOwner,
  type ContainerForm,
  type ContainerItemsQuery,
  type ContainerListQuery,
  type Currency,
  coinSystemKey,
  copperPer,
  currencies,
  emptyPurse,
  formatEnUs,
  type GiveBody,
  type InstanceData,
  type ItemInstance,
  type ItemInstanceDetail,
  type ItemInstanceListQuery,
  type ItemInstanceUpdate,
  inventoryMessages,
  isAttunable,
  type LedgerTransaction,
  MAX_ATTUNED_ITEMS,
  MAX_CONTAINERS_PER_OWNER,
  MAX_NEW_STACKS,
  MAX_STACK_QUANTITY,
  type ManualTransaction,
  manualEntryMessages,
  type OwnerContainers,
  type OwnerContainersQuery,
  type PartyRole,
  partyMessages,
  planConversion,
  planPayment,
  shopMessages,
  type TransactionType,
  undoableTransactionTypes,
} from '@haversack/contracts';
import { and, count, eq, gte, isNotNull, lt } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.js';
import { type PipelinedOptions, pipelinedTransaction } from '../../db/pipelined-transaction.js';
import { characters } from '../../db/schema/characters.js';
import { transactions } from '../../db/schema/inventory.js';
import { itemTemplates } from '../../db/schema/items.js';
import { AppError } from '../../lib/app-error.js';
import { FingerprintedCache } from '../../lib/fingerprinted-cache.js';
import type { EventBus } from '../../realtime/event-bus.js';
import type { DomainEvent } from '../../realtime/events.js';
import { canRead as canReadTemplate } from '../items/items.policy.js';
import { type LedgerEntry, ledgerRepository } from '../ledger/ledger.repository.js';
import { LedgerService, revertedBy, toTransactionJson } from '../ledger/ledger.service.js';
import { partyActivityEvents } from '../ledger/ledger-events.js';
import { type NoticeBoard, NoticeWriter, noticeLinks } from '../notifications/notices.js';
import { partiesRepository } from '../parties/parties.repository.js';
import type { EntitlementService, SubscriptionRead } from '../subscriptions/entitlements.service.js';
import { assertHoldsNoMoreThan, syncCharacterCapacity } from './capacity-change.js';
import { assertMayConjure, partyOfCharacterNow } from './conjuring-policy.js';
import { type InstanceTemplate, templateFacts, toContainerJson, toInstanceJson } from './inventory.json.js';
import * as policy from './inventory.policy.js';
import {
  type ContainerContext,
  type ContainerScope,
  type InstanceRow,
  inventoryRepository as repo,
  type TemplateRow,
} from './inventory.repository.js';
import type { MembershipRole } from './inventory.statements.js';
import { eventFromLedger, itemEditedEvent } from './inventory-events.js';
import type { LedgerActor } from './inventory-ledger.js';
import {
  capacityRefusal,
  effectiveFacts,
  enforcedLimits,
  hasOverrides,
  keepsOwnStack,
  limitOf,
  ownedContainerName,
  planStacking,
  samePersonalState,
  withoutPersonalState,
} from './inventory-rules.js';

/** A container's page of items as answered (`InventoryService.itemsJson`). */
export interface ContainerPage {
  /** The answer, serialized. */
  readonly body: Buffer;
  /** The body as compressed for an `accept-encoding` header, once answered so (kept pages only). */
  readonly encoded: Map<string, EncodedPage>;
}

/** A body as the compression plugin answered it, with the headers it set. */
export interface EncodedPage {
  bytes: Buffer;
  contentEncoding: string;
  vary: string;
}

/** The inventory's moves that shops and loot share (see `InventoryService.moves`). */
/** How a placement speaks: `nameOwner`, a refusal names whose container it is ("Korrin’s Backpack"). */
export interface PlacementOptions {
  nameOwner?: boolean;
}

export interface InventoryMoves {
  moveStack(
    tx: Executor,
    instanceId: string,
    target: ContainerContext,
    quantity: number,
    /** `nameOwner`: a refusal for room names whose container it is (`ownedContainerName`). */
    options?: PlacementOptions,
  ): Promise<{
    instance: InstanceRow;
    template: TemplateRow;
    facts: ReturnType<typeof effectiveFacts>;
    targetIds: string[];
    sourceLeft: boolean;
  }>;
  place(
    tx: Executor,
    target: ContainerContext,
    template: TemplateRow,
    quantity: number,
    instanceData: Record<string, unknown>,
    notes: string,
    unitWeight: number,
  ): Promise<string[]>;
  /**
   * Fills a container just made (a deployed shop's shelf) with several templates at once: each line's
   * stacks planned as `place` plans them (stack sizes, limits, the container's capacity with the lines
   * before it), then written in multi-row inserts. Each template once. Answers each line's stack ids.
   */
  stockNew(
    tx: Executor,
    target: ContainerContext,
    lines: { template: TemplateRow; quantity: number }[],
  ): Promise<string[][]>;
  countAction(
    tx: Executor,
    userId: string,
    scope: 'personal' | 'party',
    partyId: string | null,
  ): Promise<void>;
  coin(tx: Executor, currency: Currency): Promise<TemplateRow>;
  purse(tx: Executor, containerId: string): Promise<ContainerPurse>;
  /**
   * Refuses as `moveStack` would if `quantity` of the stack could not go into `target` now, with `coming`
   * (what else is promised to it) already there; moves nothing.
   */
  assertRoom(
    tx: Executor,
    target: ContainerContext,
    instanceId: string,
    quantity: number,
    coming?: Addition,
  ): Promise<void>;
}

/**
 * A container's coins: each coin's template, its plain stacks (no overrides; locked, oldest first) and
 * what they hold, as a payment plans it (`planPayment`).
 */
export interface ContainerPurse {
  purse: Record<Currency, number>;
  stacks: Record<Currency, InstanceRow[]>;
  coins: Record<Currency, TemplateRow>;
}

type Owner = { characterId: string } | { partyId: string };
type RecordLedger = ((entries: LedgerEntry | LedgerEntry[]) => Promise<string[]>) & {
  /**
   * One row written in the same statement as new stack quantities (one round trip); the stacks as written.
   * `commits`: the statement is the transaction's last, its COMMIT may go along (db/direct.ts).
   */
  withQuantities(
    entry: LedgerEntry,
    changes: { id: string; quantity: number }[],
    options?: { commits?: boolean },
  ): Promise<{ id: string; rows: InstanceRow[] }>;
};

/**
 * A move's ledger row, made once the move is planned and checked, and before it writes anything: it may
 * then go in the same statement as the move's writes. `stackId` is the first stack receiving items.
 * Making it may refuse the move (the allowance), so it is asked for before the writes, after the checks.
 */
type MoveLedger = (moved: {
  stackId: string | null;
  template: TemplateRow;
  name: string;
}) => Promise<LedgerEntry>;

/** A move's stack as its caller locked it, and what else it read with it (`inventoryRepository.lockMove`). */
interface MoveReads {
  instance: InstanceRow;
  /** The character owning the stack's container, if a character's. */
  sourceCharacterId: string | null;
  template?: TemplateRow | undefined;
  /** The target container's stacks of the same template, locked. */
  targetStacks?: InstanceRow[] | undefined;
}

interface Located {
  context: ContainerContext;
  access: policy.ContainerAccess;
  /** The user's role in the container's party, when they are a member. */
  role?: PartyRole | undefined;
  /** The user's subscription as read with the lock, for the container's party (`#lockAndLocate`). */
  subscription?: SubscriptionRead;
}

/** What a move or creation adds to a container, for the capacity check. */
export interface Addition {
  weight: number;
  slots: number;
}

/**
 * spec/02 §3 transaction types for a move between two owners (docs/decisions.md, issue 14). A character
 * putting into the party's containers (the stash) is a `party_deposit`, and taking out of them a
 * `party_withdraw`, when the one moving is that character's player; the same moves made on someone else's
 * character (the GM, who acts on every container of the party) are `character_to_party_transfer` and
 * `party_to_character_transfer`.
 */
/** The ledger types of a move of items from one container to another: what Undo moves back. */
const movesOfItems: ReadonlySet<string> = new Set(undoableTransactionTypes);

function transferType(from: ContainerContext, to: ContainerContext, actorId: string): TransactionType {
  if (from.character && to.character) {
    return from.character.id === to.character.id ? 'transfer' : 'character_to_character_transfer';
  }
  if (from.character && !to.character) {
    return from.character.userId === actorId ? 'party_deposit' : 'character_to_party_transfer';
  }
  if (!from.character && to.character) {
    return to.character.userId === actorId ? 'party_withdraw' : 'party_to_character_transfer';
  }
  return 'transfer';
}

/**
 * Containers, item instances, transfers and currency conversion (issue 5 items 2–4), each in one
 * transaction that locks the containers it touches (in id order) and writes its ledger rows.
 */
/**
 * "aria moved 4 × Arrow from Backpack to Quiver" within one owner's containers; between owners each is
 * named with its owner ("from Backpack (Cedric) to Backpack (Aria)"): every character's first container is
 * a Backpack, and "from Backpack to Backpack" said nothing.
 */
function moveSummary(
  actor: string,
  quantity: number,
  name: string,
  source: Pick<ContainerContext, 'container' | 'ownerName' | 'ownerId'>,
  target: Pick<ContainerContext, 'container' | 'ownerName' | 'ownerId'>,
): string {
  const [from, to] = placeLabels(source, target);
  return `${actor} moved ${formatEnUs(quantity)} × ${name} from ${from} to ${to}`;
}

type Place = Pick<ContainerContext, 'container' | 'ownerName' | 'ownerId'>;

/** Two containers as a move names them: by name alone within one owner, else with whose each is. */
function placeLabels(source: Place, target: Place): [from: string, to: string] {
  if (source.ownerId === target.ownerId) return [source.container.name, target.container.name];
  return [placeName(source), placeName(target)];
}

/** What the players an undo took items from or gave them back to are told (the ledger says less). */
function undoSentence(actor: string, given: string, source: Place, target: Place): string {
  const [from, to] = placeLabels(source, target);
  return `${actor} undid a move: ${given} went back from ${from} to ${to}`;
}

/** How many stacks a deletion's notice lists by name; the rest it counts. */
const LISTED_STACKS = 3;

/**
 * What the players a container's deletion took items from or put them into are told: one sentence for all
 * its stacks ("Gwen deleted Pouch and moved 1 × Lantern, 2 × Rope to Backpack").
 */
function deletionSentence(actor: string, moved: string[], source: Place, target: Place): string {
  const [from, to] = placeLabels(source, target);
  const listed = moved.slice(0, LISTED_STACKS).join(', ');
  const more = moved.length - LISTED_STACKS;
  const what = more > 0 ? `${listed} and ${formatEnUs(more)} more` : listed;
  return `${actor} deleted ${from} and moved ${what} to ${to}`;
}

/** What the player of an empty container someone else deleted is told ("Gwen deleted Pouch (Pip)"). */
function emptyDeletionSentence(actor: string, source: Place): string {
  return `${actor} deleted ${placeName(source)}`;
}

/**
 * A container as the ledger names it, with whose it is ("Backpack (Korrin)"), as moves name theirs: every
 * character's first container is a Backpack, and a party's Activity lists all of them.
 */
function placeName(context: Pick<ContainerContext, 'container' | 'ownerName'>): string {
  return `${context.container.name} (${context.ownerName})`;
}

/** Settles, in the deletion's transaction, what refers to a container being deleted; answers events to publish. */
export type ContainerDeletingHook = (
  tx: Executor,
  containerId: string,
  actor: LedgerActor,
) => Promise<DomainEvent[]>;

/**
 * A give, as the ledger, the notices and Discord tell it. Its player giving from their own character names
 * the character ("Pip gave 2 × Rope to Brom"); anyone else (the GM, acting on every container of the party)
 * is named as who did it, with the character the items left ("Gwen gave 2 × Rope from Pip to Brom"), as
 * loot's "from Sunken Chest" is (DESIGN §4: who took the potion has an answer). `to` absent: the receiver's
 * own notice ("Gwen gave you 2 × Rope from Pip").
 */
function giveSentence(
  actor: LedgerActor,
  sourceCharacter: { name: string; userId: string } | null | undefined,
  given: string,
  to?: string,
): string {
  const byPlayer = !sourceCharacter || sourceCharacter.userId === actor.id;
  const who = byPlayer ? (sourceCharacter?.name ?? actor.username) : actor.username;
  const from = byPlayer ? '' : ` from ${sourceCharacter.name}`;
  return to === undefined ? `${who} gave you ${given}${from}` : `${who} gave ${given}${from} to ${to}`;
}

export class InventoryService {
  /** Container pages already serialized, by container and query (`itemsJson`); empty until read. */
  readonly #pages: FingerprintedCache<ContainerPage> | undefined;
  /** Where each kept page is kept, for `keepEncodedPage`. */
  readonly #kept = new WeakMap<ContainerPage, { key: string; fingerprint: string }>();
  readonly #containerDeletingHooks: ContainerDeletingHook[] = [];
  readonly #notices = new NoticeWriter();

  /** Where a player whose character someone else gave items to finds it told, when away (app.ts). */
  setNoticeBoard(board: NoticeBoard): void {
    this.#notices.setBoard(board);
  }

  /**
   * Items put into a character's container by someone who does not play it (a gift, the GM handing out
   * from the stash): one notice to its player per act, saying who gave what to which character.
   */
  async #itemsReceivedNotice(
    tx: Executor,
    actor: LedgerActor,
    character: { id: string; name: string; userId: string },
    party: { id: string; name: string } | null,
    message: string,
  ) {
    if (character.userId === actor.id) return;
    await this.#notices.write(tx, [
      {
        userId: character.userId,
        actorId: actor.id,
        kind: 'items_received',
        partyId: party?.id ?? null,
        partyName: party?.name ?? null,
        message,
        link: noticeLinks.character(character.id, character.name),
      },
    ]);
  }

  /**
   * Items taken out of a character's containers by someone who does not play it (the GM giving or moving
   * them, review newgm M1): its player is told, as a receiver is, unless the items went to another of their
   * characters (that notice already says where from).
   */
  async #itemsMovedNotice(
    tx: Executor,
    actor: LedgerActor,
    character: { id: string; name: string; userId: string },
    party: { id: string; name: string } | null,
    message: string,
  ) {
    if (character.userId === actor.id) return;
    await this.#notices.write(tx, [
      {
        userId: character.userId,
        actorId: actor.id,
        kind: 'items_moved',
        partyId: party?.id ?? null,
        partyName: party?.name ?? null,
        message,
        link: noticeLinks.character(character.id, character.name),
      },
    ]);
  }

  /**
   * Items someone else moved out of or into characters' containers (review newgm M1): the player of the
   * character that received them is told, and the player of the one they left, unless the actor plays it or
   * they went to another of that player's characters (the receiver's notice says it). `say` phrases the act,
   * asked only when someone is told. Answers what the act's ledger row carries for the live notices.
   */
  async #tellOwners(
    tx: Executor,
    actor: LedgerActor,
    source: ContainerContext,
    target: ContainerContext,
    say: (
      intoAnother: NonNullable<ContainerContext['character']> | null,
    ) => Promise<{ sentence: string; recipientNotice: string }>,
  ): Promise<Record<string, string>> {
    const sourceCharacter = source.character;
    const intoAnother =
      target.character && target.character.id !== sourceCharacter?.id ? target.character : null;
    const tellReceiver = intoAnother !== null && intoAnother.userId !== actor.id;
    const tellSource =
      sourceCharacter !== null &&
      sourceCharacter.userId !== actor.id &&
      sourceCharacter.userId !== intoAnother?.userId;
    const told: Record<string, string> = {};
    if (!tellReceiver && !tellSource) return told;
    const { sentence, recipientNotice } = await say(intoAnother);
    const party = target.party ?? source.party;
    if (tellReceiver && intoAnother) {
      await this.#itemsReceivedNotice(tx, actor, intoAnother, party, sentence);
      told.recipient_user_id = intoAnother.userId;
      told.recipient_notice = recipientNotice;
    }
    if (tellSource && sourceCharacter) {
      await this.#itemsMovedNotice(tx, actor, sourceCharacter, party, sentence);
      told.source_owner_user_id = sourceCharacter.userId;
      told.source_owner_notice = sentence;
    }
    return told;
  }

  constructor(
    private readonly db: Database,
    private readonly entitlements: EntitlementService,
    private readonly events: EventBus,
    options: { pageCacheBytes?: number } = {},
  ) {
    const pageCacheBytes = options.pageCacheBytes ?? defaultPageCacheBytes;
    this.#pages = pageCacheBytes > 0 ? new FingerprintedCache(pageCacheBytes) : undefined;
    const countActions =
      (scope: 'personal' | 'party') =>
      async (db: Executor, userId: string, window: { month: { start: Date; end: Date } }) => {
        const [row] = await db
          .select({ n: count() })
          .from(transactions)
          .where(
            and(
              eq(transactions.actorId, userId),
              eq(transactions.scope, scope),
              gte(transactions.transactionDate, window.month.start),
              lt(transactions.transactionDate, window.month.end),
            ),
          );
        return row?.n ?? 0;
      };
    entitlements.registerUsageCounter('inventory_actions_personal_monthly', countActions('personal'));
    entitlements.registerUsageCounter('inventory_actions_party_monthly', countActions('party'));
  }

  /**
   * Every action's transaction, with fewer round trips on PostgreSQL (db/pipelined-transaction.ts): its
   * BEGIN rides with the first statements.
   */
  #transactions(options: PipelinedOptions) {
    return {
      transaction: <T>(work: (tx: Executor) => Promise<T>) => pipelinedTransaction(this.db, work, options),
    };
  }

  /**
   * One transaction whose ledger rows also become real-time events for the party they concern, published
   * only after the commit.
   */
  #transaction<T>(
    work: (tx: Executor, record: RecordLedger, emit: (event: DomainEvent) => void) => Promise<T>,
    options: PipelinedOptions = {},
  ): Promise<T> {
    return this.#notices.around((track) => this.#inTransaction(work, options, track));
  }

  #inTransaction<T>(
    work: (tx: Executor, record: RecordLedger, emit: (event: DomainEvent) => void) => Promise<T>,
    options: PipelinedOptions,
    track: (tx: Executor) => void,
  ): Promise<T> {
    return this.events.inTransaction(this.#transactions(options), async (tx, emit) => {
      track(tx);
      const written: LedgerEntry[] = [];
      const noted = (rows: LedgerEntry[]) => {
        written.push(...rows);
        for (const row of rows) {
          const event = eventFromLedger(row);
          if (event) emit(event);
        }
      };
      const record: RecordLedger = Object.assign(
        async (entries: LedgerEntry | LedgerEntry[]) => {
          const rows = Array.isArray(entries) ? entries : [entries];
          const ids = await ledgerRepository.recordReturningIds(tx, rows);
          noted(rows);
          return ids;
        },
        {
          withQuantities: async (
            entry: LedgerEntry,
            changes: { id: string; quantity: number }[],
            options?: { commits?: boolean },
          ) => {
            const written = await repo.setQuantitiesRecording(tx, changes, entry, options);
            noted([entry]);
            return written;
          },
        },
      );
      const result = await work(tx, record, emit);
      for (const event of partyActivityEvents(written)) emit(event);
      return result;
    });
  }

  /**
   * DESIGN §4: shops and loot reuse the inventory's own moves (capacity, stacking, coins, allowance)
   * inside their own transaction, never a second copy. The caller locks the containers (in id order,
   * `inventoryRepository.lockContainers`), authorises the actor and writes the ledger rows.
   */
  readonly moves: InventoryMoves = {
    moveStack: (tx, instanceId, target, quantity, options) =>
      this.#moveStack(tx, instanceId, target, quantity, undefined, undefined, options),
    place: (tx, target, template, quantity, instanceData, notes, unitWeight) =>
      this.#place(tx, target, template, quantity, instanceData, notes, unitWeight),
    stockNew: (tx, target, lines) => this.#stockNew(tx, target, lines),
    countAction: (tx, userId, scope, partyId) => this.#countAllowance(tx, userId, scope, partyId),
    coin: (tx, currency) => this.#coin(tx, currency),
    purse: (tx, containerId) => this.#purse(tx, containerId),
    assertRoom: (tx, target, instanceId, quantity, coming) =>
      this.#assertRoomFor(tx, target, instanceId, quantity, coming),
  };

  // ---- containers -------------------------------------------------------------------------------------

  async listContainers(userId: string, owner: Owner): Promise<Container[]> {
    await this.#assertOwnerReadable(this.db, userId, owner);
    const rows = await repo.listForOwner(this.db, owner);
    // All of them at once, in the same few statements whatever their number: two per container held the
    // in-process database for seconds on an owner of 1,000 containers (attack review, owner lists).
    const byId = await this.#containersJson(
      this.db,
      userId,
      rows.map((row) => row.id),
    );
    return rows.flatMap((row) => byId.get(row.id) ?? []);
  }

  async getContainer(userId: string, containerId: string): Promise<Container> {
    const located = await this.#locate(this.db, userId, containerId);
    policy.assertCanRead(located.access);
    return this.#containerJson(this.db, userId, containerId, located);
  }

  async createContainer(actor: LedgerActor, owner: Owner, form: ContainerForm): Promise<Container> {
    return this.#transaction(async (tx, record) => {
      const ownerContext = await this.#assertOwnerActable(tx, actor.id, owner);
      await this.#countAction(
        tx,
        actor.id,
        'characterId' in owner ? 'personal' : 'party',
        ownerContext.partyId,
      );
      await this.#assertRoomForContainer(tx, owner);
      const container = await repo.insertContainer(tx, {
        name: form.name,
        description: form.description,
        maxWeight: form.max_weight,
        maxSlots: form.max_slots,
        ...owner,
      });
      await record({
        transactionType: 'container_creation',
        partyId: ownerContext.partyId,
        characterId: 'characterId' in owner ? owner.characterId : null,
        actorId: actor.id,
        actorName: actor.username,
        targetName: ownerContext.name,
        targetId: 'characterId' in owner ? owner.characterId : owner.partyId,
        destinationContainerId: container.id,
        destinationName: `${container.name} (${ownerContext.name})`,
        scope: 'characterId' in owner ? 'personal' : 'party',
        summary: `${actor.username} created ${container.name} for ${ownerContext.name}`,
      });
      return this.#containerJson(tx, actor.id, container.id);
    });
  }

  async updateContainer(
    actor: LedgerActor,
    containerId: string,
    changes: Partial<ContainerForm>,
    owner?: Owner,
  ) {
    return this.#transaction(async (tx) => {
      await repo.lockContainers(tx, [containerId]);
      const { context, access, role } = await this.#locate(tx, actor.id, containerId);
      this.#assertOwnedBy(context, owner);
      policy.assertCanAct(access);
      // Renaming the stash or lifting its capacity is acting on it: the same feature as every other stash
      // action (spec/01 §3), though a change of its details is no inventory action and is not counted.
      if (!context.character && context.party) {
        policy.assertCanEditPartyContainer(role);
        await this.entitlements.requireFeature(tx, actor.id, 'party_collaboration', {
          partyId: context.party.id,
        });
      }
      await assertHoldsNoMoreThan(
        tx,
        { id: containerId, style: context.party?.encumbranceStyle ?? null },
        changes,
        { prefix: 'container', holder: 'This container' },
      );
      await repo.updateContainer(tx, containerId, {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.max_weight !== undefined ? { maxWeight: changes.max_weight } : {}),
        ...(changes.max_slots !== undefined ? { maxSlots: changes.max_slots } : {}),
      });
      // A character's capacity is its primary container's: the character sheet shows what the bars use.
      if (context.container.isPrimary && context.character)
        await syncCharacterCapacity(tx, context.character.id, changes);
      // Answered as committed, read before the locks go: another member may delete it right after.
      return this.#containerJson(tx, actor.id, containerId);
    });
  }

  /** What a container's deletion ends elsewhere (purchase requests), in its transaction; set once at build. */
  onContainerDeleting(hook: ContainerDeletingHook): void {
    this.#containerDeletingHooks.push(hook);
  }

  /** Only an empty container goes, unless its items are given a destination (moved there first). */
  async deleteContainer(actor: LedgerActor, containerId: string, destinationId?: string, owner?: Owner) {
    // Its items would be "moved" into the container being deleted and vanish with it, outside the ledger.
    if (destinationId === containerId) {
      throw AppError.validation(
        [{ field: 'destination_container_id', message: inventoryMessages.destinationIsSelf }],
        inventoryMessages.destinationIsSelf,
      );
    }
    await this.#transaction(async (tx, record, emit) => {
      // Purchase requests going into it or paid from it go back on sale (the shops' hook), taking the shop's
      // lock before the container's, as Approve does; again once it is locked, for one made in between.
      const releaseRequests = async () => {
        for (const hook of this.#containerDeletingHooks)
          for (const event of await hook(tx, containerId, actor)) emit(event);
      };
      await releaseRequests();
      await repo.lockContainers(tx, destinationId ? [containerId, destinationId] : [containerId]);
      await releaseRequests();
      const { context, access, role } = await this.#locate(tx, actor.id, containerId);
      this.#assertOwnedBy(context, owner);
      policy.assertCanAct(access);
      if (context.container.isPrimary) throw new AppError('FORBIDDEN', inventoryMessages.primaryContainer);
      const partyId = context.character ? null : context.container.partyId;
      if (partyId) {
        policy.assertCanDeletePartyContainer(role);
        // Under the owner's lock, so that two deletions at once cannot both see the other container left.
        await repo.lockOwnerContainers(tx, { partyId });
        if ((await repo.countForOwner(tx, { partyId })) <= 1) {
          throw new AppError('CONFLICT', inventoryMessages.lastPartyContainer);
        }
      }
      const stacks = await repo.allInstances(tx, containerId);
      let told: Record<string, string> = {};
      if (stacks.length > 0) {
        if (!destinationId) throw new AppError('CONFLICT', inventoryMessages.containerNotEmpty);
        try {
          // Located once for all the stacks: both containers are locked, so neither changes meanwhile.
          const located = await this.#locateMany(tx, actor.id, [containerId, destinationId]);
          // How many of each item went, by the name it goes by.
          const moved = new Map<string, number>();
          for (const stack of stacks) {
            const { template } = await this.#moveWithin(
              tx,
              record,
              actor,
              stack,
              containerId,
              destinationId,
              stack.quantity,
              { located },
            );
            const name = effectiveFacts(templateFacts(template), stack.instanceData).name;
            moved.set(name, (moved.get(name) ?? 0) + stack.quantity);
          }
          const destination = located.get(destinationId);
          if (destination) {
            told = await this.#tellOwners(tx, actor, context, destination.context, async () => {
              // By name: the stacks come locked in no particular order, and a list reads better sorted.
              const given = [...moved]
                .sort(([a], [b]) => a.localeCompare(b, 'en-US'))
                .map(([name, quantity]) => `${formatEnUs(quantity)} × ${name}`);
              const sentence = deletionSentence(actor.username, given, context, destination.context);
              return { sentence, recipientNotice: sentence };
            });
          }
        } catch (error) {
          if (!(error instanceof AppError) || error.code !== 'CAPACITY_EXCEEDED') throw error;
          // The refusal is read in the delete dialog, where "would exceed weight limit" says not of what.
          const destination = (await this.#locateMany(tx, actor.id, [destinationId])).get(destinationId);
          const message = inventoryMessages.destinationFull(
            destination?.context.container.name ?? 'That container',
            error.message,
          );
          throw new AppError('CAPACITY_EXCEEDED', message, {
            details: [{ field: 'destination_container_id', message }],
          });
        }
      } else {
        // Empty, it moves nothing, yet its player finds a container gone: told as a deletion with contents
        // is, by the same rules (the container is its own target, so no receiver is told).
        told = await this.#tellOwners(tx, actor, context, context, async () => {
          const sentence = emptyDeletionSentence(actor.username, context);
          return { sentence, recipientNotice: sentence };
        });
      }
      const scope = context.character ? 'personal' : 'party';
      await this.#countAction(tx, actor.id, scope, context.party?.id ?? null);
      await record({
        transactionType: 'container_deletion',
        partyId: context.party?.id ?? null,
        characterId: context.character?.id ?? null,
        actorId: actor.id,
        actorName: actor.username,
        targetName: context.ownerName,
        targetId: context.ownerId,
        sourceContainerId: containerId,
        sourceName: placeName(context),
        scope,
        summary: `${actor.username} deleted ${context.container.name} of ${context.ownerName}`,
        ...(Object.keys(told).length > 0 ? { details: told } : {}),
      });
      await repo.deleteContainer(tx, containerId);
    });
  }

  async capacity(userId: string, containerId: string) {
    return (await this.getContainer(userId, containerId)).capacity;
  }

  async items(userId: string, containerId: string, query: ContainerItemsQuery) {
    // The container is located and its page read at once (two connections, one round trip's wait); the
    // page is only answered once the access check passes, so a container the user may not read shows nothing.
    const [found, { rows, total }] = await Promise.all([
      this.#locateMany(this.db, userId, [containerId]),
      repo.listItems(this.db, containerId, itemFilter(query)),
    ]);
    const located = found.get(containerId);
    if (!located) throw AppError.notFound('Container not found.');
    policy.assertCanRead(located.access);
    return itemsPage(rows, total, query);
  }

  /**
   * `items`' answer (with its `status`), serialized: the hot read (issue 13 §3). Access is checked on every
   * read, in the statement that also reads the fingerprint of the container's items; a page built from
   * data of that same fingerprint is answered as it was serialized then, byte for byte, without reading
   * the page or building its JSON again. The page's JSON holds nothing of the viewer (inventory.json.ts
   * toInstanceJson), so one page serves everyone allowed to read the container.
   */
  async itemsJson(userId: string, containerId: string, query: ContainerItemsQuery): Promise<ContainerPage> {
    // A search's pages are not kept: each keystroke asks another one, rarely read again, and the
    // fingerprint costs a pass over every stack of the container (~5 ms for 5,000 on PostgreSQL).
    const keeps = this.#pages !== undefined && query.search === undefined;
    const found = await repo.contextForItems(this.db, userId, containerId, keeps);
    if (!found) throw AppError.notFound('Container not found.');
    const { context, role, hasCharacter, fingerprint } = found;
    const membership = context.party && role ? { role } : undefined;
    policy.assertCanRead(
      policy.containerAccess(context, userId, membership, Boolean(membership) && hasCharacter),
    );
    const key = pageKey(containerId, query);
    const cached = fingerprint === undefined ? undefined : this.#pages?.get(key, fingerprint);
    if (cached) return cached;
    const { rows, total } = await repo.listItems(this.db, containerId, itemFilter(query));
    // What the route answered when it stringified `items` (routes: typedJsonResponse), key for key.
    const body = Buffer.from(JSON.stringify({ status: 'success', ...itemsPage(rows, total, query) }));
    const page: ContainerPage = { body, encoded: new Map() };
    // The page was read after the fingerprint: if a write landed in between, the page is newer than its
    // fingerprint, never older, and only requests that began before that write can still read the older
    // fingerprint (every write gives the rows new versions, so no later read finds it again).
    if (fingerprint !== undefined && this.#pages) {
      this.#pages.set(key, fingerprint, page, body.length);
      this.#kept.set(page, { key, fingerprint });
    }
    return page;
  }

  /**
   * Keeps a page's body as compressed for one `accept-encoding` (the route hands over what the
   * compression plugin answered), counted in the cache's bytes; at most a few encodings per page.
   */
  keepEncodedPage(page: ContainerPage, acceptEncoding: string, encoded: EncodedPage) {
    const kept = this.#kept.get(page);
    if (!kept || page.encoded.has(acceptEncoding) || page.encoded.size >= 4) return;
    if (this.#pages?.grow(kept.key, kept.fingerprint, encoded.bytes.length)) {
      page.encoded.set(acceptEncoding, encoded);
    }
  }

  // ---- lists across containers (spec/02 §7 GET containers, GET item_instances; issue 14) ---------------

  /** GET /containers: a page of the containers the user may read, of a character, a party, or their own. */
  async listVisibleContainers(userId: string, query: ContainerListQuery) {
    const scope = await this.#readableScope(userId, query);
    const { ids, total } = await repo.listInScope(this.db, scope, {
      page: query.page,
      perPage: query.per_page,
    });
    const byId = await this.#containersJson(this.db, userId, ids);
    return {
      data: ids.flatMap((id) => byId.get(id) ?? []),
      meta: listMeta(query.page, query.per_page, total),
    };
  }

  /**
   * GET /containers/by_owner: the containers of many characters and parties, as each one's own containers
   * path lists them, in the same few statements whatever their number (it was one request per character).
   * An owner the caller may not read (as characters/{id}/containers would refuse it) is left out, so one
   * character that left the party does not fail the rest.
   */
  async listContainersOfOwners(userId: string, query: OwnerContainersQuery): Promise<OwnerContainers[]> {
    const characters = await repo.characters(this.db, query.character_ids);
    const partyIds = new Set([
      ...query.party_ids,
      ...characters.flatMap((c) => (c.partyId ? [c.partyId] : [])),
    ]);
    const memberships = await partiesRepository.memberships(this.db, userId, [...partyIds]);
    const characterById = new Map(characters.map((c) => [c.id, c]));
    const owners: OwnerContainers['owner'][] = [
      ...query.character_ids.flatMap((id) => {
        const character = characterById.get(id);
        const readable =
          character !== undefined &&
          (character.userId === userId || (character.partyId !== null && memberships.has(character.partyId)));
        return readable ? [{ type: 'character' as const, id }] : [];
      }),
      ...query.party_ids.flatMap((id) => (memberships.has(id) ? [{ type: 'party' as const, id }] : [])),
    ];
    // Located and summed by owner in one round trip (the two statements at once), not listed first.
    const { located, usage } = await repo.locateForOwners(
      this.db,
      userId,
      owners.flatMap((o) => (o.type === 'character' ? [o.id] : [])),
      owners.flatMap((o) => (o.type === 'party' ? [o.id] : [])),
    );
    const lists = new Map<string, Container[]>(owners.map((o) => [`${o.type}:${o.id}`, []]));
    for (const found of located) {
      const { context, access } = this.#toLocatedOne(userId, found);
      const c = context.container;
      const key = c.characterId ? `character:${c.characterId}` : `party:${c.partyId}`;
      lists.get(key)?.push(toContainerJson(context, usage.get(c.id), access.canAct && !access.archived));
    }
    return owners.map((owner) => ({ owner, containers: lists.get(`${owner.type}:${owner.id}`) ?? [] }));
  }

  /** POST /containers: the owner comes in the body; the rules are those of the owner's own path. */
  async createContainerFor(actor: LedgerActor, input: ContainerCreateWithOwner): Promise<Container> {
    const { character_id, party_id, ...form } = input;
    if (character_id) return this.createContainer(actor, { characterId: character_id }, form);
    if (party_id) return this.createContainer(actor, { partyId: party_id }, form);
    throw AppError.validation([
      { field: 'container.character_id', message: inventoryMessages.containerOwnerRequired },
    ]);
  }

  /**
   * The containers of characters the caller already may read (GET characters?include=containers), by
   * character, each character's main container first; a handful of queries whatever their number.
   */
  async containersOfCharacters(userId: string, characterIds: string[]): Promise<Map<string, Container[]>> {
    const rows = await repo.listForCharacters(this.db, characterIds);
    const byId = await this.#containersJson(
      this.db,
      userId,
      rows.map((row) => row.id),
    );
    const lists = new Map<string, Container[]>(characterIds.map((id) => [id, []]));
    for (const row of rows) {
      const json = byId.get(row.id);
      if (json && row.characterId) lists.get(row.characterId)?.push(json);
    }
    return lists;
  }

  /** GET /item_instances: the filters of containers/{id}/items, over every container of the scope. */
  async listItemInstances(userId: string, query: ItemInstanceListQuery) {
    const scope = await this.#readableScope(userId, query);
    const { rows, total } = await repo.listItems(this.db, scope, itemFilter(query));
    return {
      data: rows.map((r) => toInstanceJson(r.instance, r.template)),
      meta: listMeta(query.page, query.per_page, total),
    };
  }

  /** The filters of a list, checked: a container, a character or a party the user may not read is 404. */
  async #readableScope(
    userId: string,
    filter: {
      container_id?: string | undefined;
      character_id?: string | undefined;
      party_id?: string | undefined;
    },
  ): Promise<ContainerScope> {
    if (filter.container_id) {
      policy.assertCanRead((await this.#locate(this.db, userId, filter.container_id)).access);
    }
    if (filter.character_id) {
      const character = await repo.character(this.db, filter.character_id);
      if (!(await mayReadCharacter(this.db, userId, character)))
        throw AppError.notFound('Character not found.');
    }
    if (filter.party_id && !(await partiesRepository.membership(this.db, filter.party_id, userId))) {
      throw AppError.notFound('Party not found.');
    }
    return {
      userId,
      ...(filter.container_id ? { containerId: filter.container_id } : {}),
      ...(filter.character_id ? { characterId: filter.character_id } : {}),
      ...(filter.party_id ? { partyId: filter.party_id } : {}),
    };
  }

  /** Container JSON for many containers at once, each with the user's own `can_act`. */
  async #containersJson(db: Executor, userId: string, ids: string[]): Promise<Map<string, Container>> {
    // Located as a single container is (#locate): the same role and character, the same rule.
    const [located, usage] = await Promise.all([this.#locateMany(db, userId, ids), repo.usage(db, ids)]);
    const json = new Map<string, Container>();
    for (const [id, { context, access }] of located) {
      json.set(id, toContainerJson(context, usage.get(id), access.canAct && !access.archived));
    }
    return json;
  }

  // ---- manual ledger entries (spec/02 §7 POST transactions; issue 14) ----------------------------------

  /**
   * The GM writes what happened at the table into the party's ledger (docs/decisions.md, "Manual ledger
   * entries"): a note alone, or coins spent from or received into a container of the party or of one of
   * its characters, with change back in the largest coins. Every row is an `adjust` row; the coin rows
   * move coins like any other row, so replaying the ledger still gives every container.
   */
  async recordManualEntry(actor: LedgerActor, input: ManualTransaction): Promise<LedgerTransaction[]> {
    const ids = await this.#transaction(async (tx, record) => {
      const party = await partiesRepository.findParty(tx, input.party_id);
      const membership = party ? await partiesRepository.membership(tx, input.party_id, actor.id) : undefined;
      if (!party || !membership) throw AppError.notFound('Party not found.');
      if (membership.role !== 'gm') throw new AppError('FORBIDDEN', manualEntryMessages.gmOnly);
      policy.assertPartyNotArchived(party.isArchived);
      if (input.kind === 'note') {
        return record({
          transactionType: 'adjust',
          partyId: party.id,
          actorId: actor.id,
          actorName: actor.username,
          targetName: party.name,
          targetId: party.id,
          notes: input.notes,
          details: { manual: 'note' },
          summary: `${actor.username} noted: ${input.notes}`,
        });
      }
      await repo.lockContainers(tx, [input.container_id]);
      const located = await this.#locate(tx, actor.id, input.container_id);
      if (!located.access.canRead || located.context.party?.id !== party.id) {
        throw AppError.validation([
          { field: 'transaction.container_id', message: manualEntryMessages.containerOutsideParty },
        ]);
      }
      policy.assertCanAct(located.access);
      const scope = this.#scope(located.context);
      await this.#countAction(tx, actor.id, scope, party.id);
      const container = located.context.container;
      const place = placeName(located.context);
      const amount = `${formatEnUs(input.amount)} ${input.currency}`;
      const base = {
        ...this.#base(actor, located.context, scope),
        transactionType: 'adjust',
        notes: input.notes,
        details: { manual: input.kind },
      };
      const rows: LedgerEntry[] = [];
      if (input.kind === 'receive') {
        const coin = await this.#coin(tx, input.currency);
        const created = await this.#place(tx, located.context, coin, input.amount, {}, '', coin.weight);
        const summary = `${actor.username} added ${amount} to ${place}: ${input.notes}`;
        rows.push({
          ...base,
          itemTemplateId: coin.id,
          itemInstanceId: created[0] ?? null,
          itemName: coin.name,
          quantity: input.amount,
          destinationContainerId: container.id,
          destinationName: place,
          summary,
        });
      } else {
        const summary = `${actor.username} spent ${amount} from ${place}: ${input.notes}`;
        const { purse, stacks, coins } = await this.#purse(tx, container.id);
        const plan = planPayment(purse, input.amount * copperPer[input.currency]);
        if (!plan.ok) {
          const message = shopMessages.insufficientFunds(plan.missingCp);
          throw new AppError('INSUFFICIENT_FUNDS', message, {
            details: [{ field: 'transaction.amount', message }],
          });
        }
        // Paid in the named coin alone, the entry is one row and the plain sentence says it all. Otherwise
        // each row names its coin and whether it paid or came back as change, or the history would read
        // "spent 1 pp ×9" for the nine gold pieces that paid it.
        const exact =
          plan.pay[input.currency] > 0 &&
          currencies.every((c) => plan.change[c] === 0 && (c === input.currency || plan.pay[c] === 0));
        for (const currency of currencies) {
          const coin = coins[currency];
          if (plan.pay[currency] === 0) continue;
          let left = plan.pay[currency];
          for (const s of stacks[currency]) {
            if (left === 0) break;
            const take = Math.min(s.quantity, left);
            if (take === s.quantity) await repo.deleteInstance(tx, s.id);
            else await repo.updateInstance(tx, s.id, { quantity: s.quantity - take });
            left -= take;
          }
          rows.push({
            ...base,
            itemTemplateId: coin.id,
            itemName: coin.name,
            quantity: plan.pay[currency],
            sourceContainerId: container.id,
            sourceName: place,
            details: { manual: input.kind, role: 'payment' },
            summary: exact
              ? summary
              : `${actor.username} paid ${formatEnUs(plan.pay[currency])} × ${coin.name} from ${place} to spend ${amount}: ${input.notes}`,
          });
        }
        for (const currency of currencies) {
          const coin = coins[currency];
          if (plan.change[currency] === 0) continue;
          const created = await this.#place(
            tx,
            located.context,
            coin,
            plan.change[currency],
            {},
            '',
            coin.weight,
          );
          rows.push({
            ...base,
            itemTemplateId: coin.id,
            itemInstanceId: created[0] ?? null,
            itemName: coin.name,
            quantity: plan.change[currency],
            destinationContainerId: container.id,
            destinationName: place,
            details: { manual: input.kind, role: 'change' },
            summary: `${actor.username} got ${formatEnUs(plan.change[currency])} × ${coin.name} back in change into ${place}, spending ${amount}: ${input.notes}`,
          });
        }
      }
      // One entry is one inventory action (DESIGN §5): only its first row counts, as with a purchase.
      return record(rows.map((row, i) => (i === 0 ? row : { ...row, scope: null })));
    });
    return (await ledgerRepository.byIds(this.db, ids)).map((row) => toTransactionJson(row));
  }

  // ---- item instances ---------------------------------------------------------------------------------

  /**
   * One stack, for its sheet: with its template's description (which lists leave out) and whether the
   * user may open the template's page. Whoever may see the stack reads the description, even of another's
   * private template: it says what the item in their hands is; the page itself stays its creator's.
   */
  async getInstance(userId: string, instanceId: string): Promise<ItemInstanceDetail> {
    const instance = await repo.instance(this.db, instanceId);
    if (!instance) throw AppError.notFound('Item not found.');
    const located = await this.#locate(this.db, userId, instance.containerId);
    if (!located.access.canRead) throw AppError.notFound('Item not found.');
    const json = await this.#instanceJson(this.db, instance.id);
    const template = await repo.templateForSheet(this.db, instance.itemTemplateId);
    return {
      ...json,
      item_template: {
        ...json.item_template,
        description: template?.description ?? '',
        viewable: canReadTemplate(template, userId),
      },
    };
  }

  /** Marketplace → container: a new instance of a template (spec/02 §4 "create an instance"). */
  async createInstance(
    actor: LedgerActor,
    input: {
      item_template_id: string;
      container_id: string;
      quantity: number;
      instance_data?: InstanceData | undefined;
      notes?: string | undefined;
    },
  ): Promise<ItemInstance[]> {
    return this.#transaction(async (tx, record) => {
      await repo.lockContainers(tx, [input.container_id]);
      const target = await this.#locate(tx, actor.id, input.container_id);
      policy.assertCanAct(target.access);
      await assertMayConjure(tx, actor.id, target.context);
      const template = await this.#readableTemplate(tx, actor.id, input.item_template_id);
      // Attuning is its own step (updateInstance), where the limit of three is checked.
      const { is_attuned: _attuned, ...instanceData } = input.instance_data ?? {};
      const facts = effectiveFacts(templateFacts(template), instanceData);
      const created = await this.#place(
        tx,
        target.context,
        template,
        input.quantity,
        instanceData,
        input.notes ?? '',
        facts.weight,
      );
      const scope = this.#scope(target.context);
      await this.#countAction(tx, actor.id, scope, target.context.party?.id ?? null);
      const added = `${actor.username} added ${formatEnUs(input.quantity)} × ${facts.name} to ${placeName(target.context)}`;
      if (target.context.character)
        await this.#itemsReceivedNotice(tx, actor, target.context.character, target.context.party, added);
      await record({
        ...this.#base(actor, target.context, scope),
        transactionType: 'item_creation',
        itemTemplateId: template.id,
        itemInstanceId: created[0] ?? null,
        itemName: facts.name,
        quantity: input.quantity,
        destinationContainerId: target.context.container.id,
        destinationName: placeName(target.context),
        summary: added,
      });
      // Answered as committed: read after the commit, a stack topped up here may be gone already.
      return this.#instancesJson(tx, created);
    });
  }

  async updateInstance(
    actor: LedgerActor,
    instanceId: string,
    changes: ItemInstanceUpdate,
  ): Promise<ItemInstance> {
    return this.#transaction(async (tx, record, emit) => {
      // Attuning (or growing an attuned stack) locks the character first, before its container, so that
      // two racing attunements are counted one after the other.
      if (changes.instance_data?.is_attuned === true || changes.quantity !== undefined) {
        const owner = await this.#owningCharacterId(tx, instanceId);
        if (owner) await repo.lockCharacter(tx, owner);
      }
      const { instance, template, located } = await this.#lockInstanceForAct(tx, actor.id, instanceId);
      const instanceData: Record<string, unknown> = {
        ...instance.instanceData,
        ...(changes.instance_data ?? {}),
      };
      if (changes.name !== undefined) {
        instanceData.name_override = changes.name === template.name ? null : changes.name;
      }
      for (const [key, value] of Object.entries(instanceData)) if (value === null) delete instanceData[key];
      // A quantity typed over another number would undo what a move merged into the stack meanwhile.
      if (
        changes.quantity !== undefined &&
        changes.expected_quantity !== undefined &&
        changes.expected_quantity !== instance.quantity
      ) {
        const message = inventoryMessages.stackChanged(
          effectiveFacts(templateFacts(template), instance.instanceData).name,
          instance.quantity,
        );
        throw new AppError('CONFLICT', message, { details: [{ field: 'item_instance.quantity', message }] });
      }
      const quantity = changes.quantity ?? instance.quantity;
      // A bigger stack is new items too (gold from nothing), so the party's conjuring rule applies.
      if (quantity > instance.quantity) await assertMayConjure(tx, actor.id, located.context);
      const before = effectiveFacts(templateFacts(template), instance.instanceData);
      const after = effectiveFacts(templateFacts(template), instanceData);
      // So is a dearer item: a shop buys it back at its value, in coins.
      if (after.valueCp > before.valueCp) {
        await assertMayConjure(
          tx,
          actor.id,
          located.context,
          () => new AppError('FORBIDDEN', partyMessages.valueRaiseGmOnly),
        );
      }
      if (template.stackSize > 0 && quantity > template.stackSize) {
        throw AppError.validation([
          {
            field: 'item_instance.quantity',
            message: `A stack of ${template.name} holds at most ${template.stackSize}`,
          },
        ]);
      }
      await this.#assertAttunementAllowed(
        tx,
        { instance, template, context: located.context },
        instanceData,
        quantity,
      );
      const addedWeight = after.weight * quantity - before.weight * instance.quantity;
      // The refusal names what the edit changed to make the item heavier, not a target it has none of.
      const heavierField =
        after.weight > before.weight
          ? 'item_instance.instance_data.weight_override'
          : 'item_instance.quantity';
      await this.#assertFits(
        tx,
        located.context,
        { weight: Math.max(0, addedWeight), slots: 0 },
        heavierField,
      );
      await repo.updateInstance(tx, instance.id, {
        instanceData,
        quantity,
        ...(changes.notes !== undefined ? { notes: changes.notes } : {}),
        ...(changes.is_identified !== undefined ? { isIdentified: changes.is_identified } : {}),
      });
      if (quantity !== instance.quantity) {
        const delta = quantity - instance.quantity;
        const scope = this.#scope(located.context);
        await this.#countAction(tx, actor.id, scope, located.context.party?.id ?? null);
        await record({
          ...this.#base(actor, located.context, scope),
          transactionType: 'adjust',
          itemTemplateId: template.id,
          itemInstanceId: instance.id,
          itemName: after.name,
          quantity: Math.abs(delta),
          ...(delta > 0
            ? {
                destinationContainerId: located.context.container.id,
                destinationName: placeName(located.context),
              }
            : {
                sourceContainerId: located.context.container.id,
                sourceName: placeName(located.context),
              }),
          summary: `${actor.username} ${delta > 0 ? 'added' : 'removed'} ${formatEnUs(Math.abs(delta))} × ${after.name} in ${placeName(located.context)} (adjusted to ${formatEnUs(quantity)})`,
        });
      } else {
        const event = itemEditedEvent({
          ...this.#base(actor, located.context, this.#scope(located.context)),
          transactionType: 'adjust',
          itemTemplateId: template.id,
          itemInstanceId: instance.id,
          itemName: after.name,
          destinationContainerId: located.context.container.id,
          destinationName: placeName(located.context),
          summary: `${actor.username} edited ${after.name} in ${placeName(located.context)}`,
        });
        if (event) emit(event);
      }
      return this.#instanceJson(tx, instance.id);
    });
  }

  async destroyInstance(actor: LedgerActor, instanceId: string): Promise<void> {
    await this.#transaction(async (tx, record) => {
      const { instance, template, located } = await this.#lockInstanceForAct(tx, actor.id, instanceId);
      const facts = effectiveFacts(templateFacts(template), instance.instanceData);
      const scope = this.#scope(located.context);
      const partyId = located.context.party?.id ?? null;
      // Destroying gains nothing, so it spends no monthly allowance: a player who used it up may still tidy
      // up for the rest of the month. Acting on a party's things still needs party collaboration.
      if (scope === 'party' && partyId)
        await this.entitlements.requireFeature(tx, actor.id, 'party_collaboration', { partyId });
      await record({
        ...this.#base(actor, located.context, scope),
        scope: null,
        transactionType: 'item_destruction',
        itemTemplateId: template.id,
        itemInstanceId: instance.id,
        itemName: facts.name,
        quantity: instance.quantity,
        sourceContainerId: located.context.container.id,
        sourceName: placeName(located.context),
        summary: `${actor.username} destroyed ${formatEnUs(instance.quantity)} × ${facts.name} from ${placeName(located.context)}`,
      });
      await repo.deleteInstance(tx, instance.id);
    });
  }

  async split(actor: LedgerActor, instanceId: string, amount: number): Promise<ItemInstance[]> {
    return this.#transaction(async (tx, record) => {
      const { instance, template, located } = await this.#lockInstanceForAct(tx, actor.id, instanceId);
      if (amount < 1 || amount >= instance.quantity) {
        throw AppError.validation([{ field: 'quantity', message: inventoryMessages.splitRange }]);
      }
      await this.#assertFits(tx, located.context, { weight: 0, slots: 1 });
      await repo.updateInstance(tx, instance.id, { quantity: instance.quantity - amount });
      const created = await repo.insertInstance(tx, {
        containerId: instance.containerId,
        itemTemplateId: instance.itemTemplateId,
        quantity: amount,
        instanceData: instance.instanceData,
        notes: instance.notes,
        isIdentified: instance.isIdentified,
      });
      const facts = effectiveFacts(templateFacts(template), instance.instanceData);
      const scope = this.#scope(located.context);
      await this.#countAction(tx, actor.id, scope, located.context.party?.id ?? null);
      await record({
        ...this.#base(actor, located.context, scope),
        transactionType: 'split',
        itemTemplateId: template.id,
        itemInstanceId: created.id,
        itemName: facts.name,
        quantity: amount,
        sourceContainerId: instance.containerId,
        sourceName: placeName(located.context),
        destinationContainerId: instance.containerId,
        destinationName: placeName(located.context),
        summary: `${actor.username} split ${formatEnUs(amount)} × ${facts.name} off a stack of ${formatEnUs(instance.quantity)} in ${placeName(located.context)}`,
      });
      return this.#instancesJson(tx, [instance.id, created.id]);
    });
  }

  async merge(actor: LedgerActor, instanceId: string, targetInstanceId: string): Promise<ItemInstance> {
    if (instanceId === targetInstanceId)
      throw AppError.validation([{ field: 'target_instance_id', message: inventoryMessages.mergeSame }]);
    return this.#transaction(async (tx, record) => {
      const source = await this.#lockInstanceForAct(tx, actor.id, instanceId);
      const target = await repo.lockInstance(tx, targetInstanceId);
      if (!target) {
        throw AppError.validation([
          { field: 'target_instance_id', message: inventoryMessages.mergeDifferent },
        ]);
      }
      if (target.containerId !== source.instance.containerId) {
        // Where the other stack lies is said only to who may see it; to anyone else it is no stack of theirs.
        const where = (await this.#locateMany(tx, actor.id, [target.containerId])).get(target.containerId);
        const message = where?.access.canRead
          ? inventoryMessages.mergeAcrossContainers
          : inventoryMessages.mergeDifferent;
        throw AppError.validation([{ field: 'target_instance_id', message }]);
      }
      const combined = source.instance.quantity + target.quantity;
      const sameKind =
        target.itemTemplateId === source.instance.itemTemplateId &&
        !hasOverrides(source.instance.instanceData) &&
        !hasOverrides(target.instanceData);
      if (!sameKind) {
        throw AppError.validation([
          { field: 'target_instance_id', message: inventoryMessages.mergeDifferent },
        ]);
      }
      if (!samePersonalState(source.instance.instanceData, target.instanceData)) {
        throw AppError.validation([
          { field: 'target_instance_id', message: inventoryMessages.mergePersonalState },
        ]);
      }
      if (source.template.stackSize > 0 && combined > source.template.stackSize) {
        // The edit form's words for the same rule: the stacks are alike, the sum is too big.
        throw AppError.validation([
          {
            field: 'target_instance_id',
            message: `A stack of ${source.template.name} holds at most ${source.template.stackSize}`,
          },
        ]);
      }
      if (combined > MAX_STACK_QUANTITY) throw stackTooLarge('target_instance_id');
      await repo.updateInstance(tx, target.id, { quantity: combined });
      await repo.deleteInstance(tx, source.instance.id);
      const scope = this.#scope(source.located.context);
      await this.#countAction(tx, actor.id, scope, source.located.context.party?.id ?? null);
      await record({
        ...this.#base(actor, source.located.context, scope),
        transactionType: 'merge',
        itemTemplateId: source.template.id,
        itemInstanceId: target.id,
        itemName: source.template.name,
        quantity: source.instance.quantity,
        sourceContainerId: target.containerId,
        sourceName: placeName(source.located.context),
        destinationContainerId: target.containerId,
        destinationName: placeName(source.located.context),
        summary: `${actor.username} merged ${formatEnUs(source.instance.quantity)} × ${source.template.name} into a stack of ${formatEnUs(target.quantity)} in ${placeName(source.located.context)}`,
      });
      return this.#instanceJson(tx, target.id);
    });
  }

  // ---- transfers --------------------------------------------------------------------------------------

  async transfer(
    actor: LedgerActor,
    input: {
      item_instance_id: string;
      source_container_id: string;
      target_container_id: string;
      quantity?: number | undefined;
    },
  ) {
    if (input.source_container_id === input.target_container_id) {
      throw AppError.validation(
        [{ field: 'target_container_id', message: inventoryMessages.sameContainer }],
        inventoryMessages.sameContainer,
      );
    }
    const result = await this.#transaction(
      async (tx, record) => {
        // Both containers locked and located in one statement, then the stack and the target's stacks of
        // its template locked in another: the move itself needs no further read. The two are sent together
        // (with the BEGIN, db/pipelined-transaction.ts) and run in that order, containers first.
        const [located, reads] = await Promise.all([
          this.#lockAndLocate(tx, actor.id, [input.source_container_id, input.target_container_id]),
          repo.lockMove(tx, input.item_instance_id, input.target_container_id),
        ]);
        if (!reads || reads.instance.containerId !== input.source_container_id)
          throw AppError.notFound(inventoryMessages.itemGone);
        const quantity = input.quantity ?? reads.instance.quantity;
        if (quantity > reads.instance.quantity) {
          throw AppError.validation([{ field: 'quantity', message: inventoryMessages.quantityTooLarge }]);
        }
        return this.#moveWithin(
          tx,
          record,
          actor,
          reads.instance,
          input.source_container_id,
          input.target_container_id,
          quantity,
          // The move's write is the transaction's last statement: its COMMIT goes along.
          { reads, located, endsTransaction: true, tellOwner: 'transfer' },
        );
        // Its statements are written once (inventory.statements.ts): planned once per connection.
      },
      { genericPlans: true },
    );
    // The answer is built from the rows the move wrote (RETURNING), not read again after the commit.
    const found = (id: string) => {
      const row = result.rows.get(id);
      if (!row) throw AppError.notFound('Item not found.');
      return toInstanceJson(row, result.template);
    };
    return {
      success: true as const,
      message: inventoryMessages.transferred,
      moved: result.moved,
      source_instance: result.sourceLeft ? found(input.item_instance_id) : null,
      target_instances: result.targetIds.map(found),
      transaction_ids: result.transactionIds,
    };
  }

  /**
   * DESIGN §4 Undo: a move of mine is reverted by a new move back, under the same rules (access, capacity,
   * stacking, allowance), whose ledger rows name the entry they revert (`details.reverts`); the entry itself
   * is never changed. The units come back from the stack the move filled, then from stacks of the same
   * item left as it; when fewer are left than were moved, nothing moves. An entry is undone once, and an
   * undo is not undone (moving the items again is).
   */
  async undoMove(actor: LedgerActor, transactionId: string) {
    const undone = await this.#transaction(async (tx, record) => {
      const entry = await ledgerRepository.lockOwnEntry(tx, transactionId, actor.id);
      // Why not is asked outside the transaction: PGlite has one connection, which the transaction holds.
      if (!entry) return undefined;
      const { sourceContainerId, destinationContainerId, itemTemplateId, quantity } = entry;
      if (
        !movesOfItems.has(entry.transactionType) ||
        !sourceContainerId ||
        !destinationContainerId ||
        !itemTemplateId ||
        !quantity
      ) {
        throw new AppError('CONFLICT', inventoryMessages.undoNotAMove);
      }
      if (revertedBy(entry)) throw new AppError('CONFLICT', inventoryMessages.undoOfUndo);
      if (await ledgerRepository.isReverted(tx, { id: entry.id, destinationContainerId }))
        throw new AppError('CONFLICT', inventoryMessages.undoneAlready);
      const locked = await repo.lockContainers(tx, [sourceContainerId, destinationContainerId]);
      // A container deleted since: its items went on elsewhere (a deleted destination hands them on), or
      // they have nowhere to go back to. Said in the undo's words, not as a container not found.
      if (!locked.some((container) => container.id === destinationContainerId))
        throw new AppError('CONFLICT', inventoryMessages.undoItemsMovedOn);
      if (!locked.some((container) => container.id === sourceContainerId))
        throw new AppError('CONFLICT', inventoryMessages.undoSourceGone);
      // A shop's stock or a loot's contents change by their own rules (prices, takes): not moved back here.
      if (locked.some((container) => container.shopInstanceId !== null || container.lootInstanceId !== null))
        throw new AppError('CONFLICT', inventoryMessages.undoNotAMove);
      const stacks = (await repo.allInstances(tx, destinationContainerId)).filter(
        (stack) => stack.itemTemplateId === itemTemplateId,
      );
      // The stack the move filled tells which items were moved (a renamed stack is not plain arrows): without
      // it, the units there may be someone else's, so nothing moves.
      const filled = stacks.find((stack) => stack.id === entry.itemInstanceId);
      if (!filled) throw new AppError('CONFLICT', inventoryMessages.undoItemsMovedOn);
      // jsonb keeps an object's keys in one order, so equal instance data serialize alike.
      const alike = JSON.stringify(filled.instanceData);
      const candidates = [
        filled,
        ...stacks.filter((stack) => stack !== filled && JSON.stringify(stack.instanceData) === alike),
      ];
      if (candidates.reduce((sum, stack) => sum + stack.quantity, 0) < quantity)
        throw new AppError('CONFLICT', inventoryMessages.undoItemsMovedOn);
      const decorate = (row: LedgerEntry): LedgerEntry => ({
        ...row,
        details: { ...(row.details ?? {}), reverts: entry.id },
        summary: `${actor.username} undid a move: ${formatEnUs(row.quantity ?? 0)} × ${row.itemName} went back to ${row.destinationName}`,
      });
      let left = quantity;
      for (const stack of candidates) {
        if (left === 0) break;
        const part = Math.min(left, stack.quantity);
        await this.#moveWithin(tx, record, actor, stack, destinationContainerId, sourceContainerId, part, {
          decorate,
          tellOwner: 'undo',
        });
        left -= part;
      }
      return { success: true as const, message: inventoryMessages.undone, moved: quantity };
    });
    if (!undone) throw await this.#whyNotOwnEntry(actor.id, transactionId);
    return undone;
  }

  /** Another's entry its reader may see in a history is refused as such; one they may not see stays unknown. */
  async #whyNotOwnEntry(userId: string, transactionId: string): Promise<AppError> {
    const readable = await new LedgerService(this.db).one(userId, transactionId).then(
      () => true,
      () => false,
    );
    return readable
      ? new AppError('FORBIDDEN', inventoryMessages.undoNotYours)
      : AppError.notFound(inventoryMessages.undoNotFound);
  }

  /**
   * Issue 12 §8: a character hands a stack (or part of it) to another character of its party, into that
   * character's primary container. The giver needs to act on the item; the receiver's consent is not asked,
   * as at the table. Observers give nothing; an archived party is read-only.
   */
  async give(actor: LedgerActor, instanceId: string, input: GiveBody) {
    const result = await this.#transaction(async (tx, record) => {
      const peek = await repo.instance(tx, instanceId);
      if (!peek) throw AppError.notFound('Item not found.');
      const recipient = await repo.character(tx, input.character_id);
      const recipientRefusal = (message: string) =>
        AppError.validation([{ field: 'character_id', message }], message);
      const targetId = recipient ? await repo.primaryContainerId(tx, recipient.id) : undefined;
      await repo.lockContainers(tx, targetId ? [peek.containerId, targetId] : [peek.containerId]);
      const instance = await repo.lockInstance(tx, instanceId);
      if (!instance || instance.containerId !== peek.containerId) {
        throw new AppError('CONFLICT', 'This item moved while you were changing it. Refresh and try again.');
      }
      const source = await this.#locate(tx, actor.id, instance.containerId);
      if (!source.access.canRead) throw AppError.notFound('Item not found.');
      policy.assertCanAct(source.access);
      // After the item's own refusals, which tell nothing of the recipient. One the giver may not see is
      // answered as an unknown one (as GET characters/{id} is): that it exists elsewhere is not theirs to learn.
      if (!recipient || !targetId || !(await mayReadCharacter(tx, actor.id, recipient)))
        throw recipientRefusal('Character not found.');
      const giver = source.context.character;
      const party = source.context.party;
      if (!giver) throw recipientRefusal(inventoryMessages.giveFromCharacter);
      if (!party || recipient.partyId !== party.id)
        throw recipientRefusal(inventoryMessages.giveOutsideParty);
      const membership = await partiesRepository.membership(tx, party.id, actor.id);
      if (membership?.role === 'observer') throw new AppError('FORBIDDEN', inventoryMessages.giveAsObserver);
      if (recipient.id === giver.id) throw recipientRefusal(inventoryMessages.giveToOtherCharacter);
      const quantity = input.quantity ?? instance.quantity;
      if (quantity > instance.quantity) {
        throw AppError.validation([{ field: 'quantity', message: inventoryMessages.quantityTooLarge }]);
      }
      const target = await repo.context(tx, targetId);
      if (!target) throw recipientRefusal('Character not found.');
      const { template, facts, targetIds, sourceLeft, rows } = await this.#moveStack(
        tx,
        instance.id,
        target,
        quantity,
      );
      await this.#countAction(tx, actor.id, 'personal', party.id);
      const given = `${formatEnUs(quantity)} × ${facts.name}`;
      const summary = giveSentence(actor, giver, given, recipient.name);
      await this.#itemsReceivedNotice(tx, actor, recipient, party, summary);
      const tellGiver = giver.userId !== actor.id && giver.userId !== recipient.userId;
      if (tellGiver) await this.#itemsMovedNotice(tx, actor, giver, party, summary);
      const transactionIds = await record({
        transactionType: 'character_to_character_transfer',
        partyId: party.id,
        characterId: giver.id,
        actorId: actor.id,
        actorName: actor.username,
        targetName: recipient.name,
        targetId: recipient.id,
        itemTemplateId: template.id,
        itemInstanceId: targetIds[0] ?? null,
        itemName: facts.name,
        quantity,
        sourceContainerId: instance.containerId,
        sourceName: `${source.context.container.name} (${giver.name})`,
        destinationContainerId: targetId,
        destinationName: `${target.container.name} (${recipient.name})`,
        scope: 'personal',
        summary,
        // The receiver's screens refresh that character's containers and say who gave what (inventory-events);
        // the giving character's player, when someone else gave, is told too.
        details: {
          recipient_character_id: recipient.id,
          recipient_user_id: recipient.userId,
          recipient_notice: giveSentence(actor, giver, given),
          ...(tellGiver ? { source_owner_user_id: giver.userId, source_owner_notice: summary } : {}),
        },
      });
      // The answer is built from the rows the move wrote (RETURNING), as a transfer's is: read again after
      // the commit, a stack another request emptied meanwhile would answer 404 for a gift that was made.
      const written = (id: string) => {
        const row = rows.get(id);
        if (!row) throw new AppError('INTERNAL_SERVER_ERROR', 'a give wrote no row for a stack it moved');
        return toInstanceJson(row, template);
      };
      return {
        moved: quantity,
        sourceInstance: sourceLeft ? written(instance.id) : null,
        targetInstances: targetIds.map(written),
        transactionIds,
      };
    });
    return {
      success: true as const,
      message: inventoryMessages.transferred,
      moved: result.moved,
      source_instance: result.sourceInstance,
      target_instances: result.targetInstances,
      transaction_ids: result.transactionIds,
    };
  }

  /** Converts coins inside one container, e.g. 100 cp → 1 gp (issue 5 item 4). */
  async convertCurrency(
    actor: LedgerActor,
    containerId: string,
    input: { from: Currency; to: Currency; quantity?: number | undefined },
  ) {
    return this.#transaction(async (tx, record) => {
      await repo.lockContainers(tx, [containerId]);
      const located = await this.#locate(tx, actor.id, containerId);
      policy.assertCanAct(located.access);
      const [fromTemplate, toTemplate] = await Promise.all([
        this.#coin(tx, input.from),
        this.#coin(tx, input.to),
      ]);
      const stacks = (await repo.plainStacks(tx, containerId, fromTemplate.id)).filter(
        (s) => !hasOverrides(s.instanceData),
      );
      const available = stacks.reduce((sum, s) => sum + s.quantity, 0);
      const plan = planConversion(input.from, input.to, available, input.quantity);
      if (!plan) {
        const message =
          available === 0 || (input.quantity ?? 0) > available
            ? inventoryMessages.notEnoughCoins
            : inventoryMessages.conversionUneven;
        throw AppError.validation([{ field: 'quantity', message }]);
      }
      let left = plan.spend;
      for (const stack of stacks) {
        if (left === 0) break;
        const take = Math.min(stack.quantity, left);
        if (take === stack.quantity) await repo.deleteInstance(tx, stack.id);
        else await repo.updateInstance(tx, stack.id, { quantity: stack.quantity - take });
        left -= take;
      }
      const addedWeight = Math.max(0, plan.receive * toTemplate.weight - plan.spend * fromTemplate.weight);
      const created = await this.#place(
        tx,
        located.context,
        toTemplate,
        plan.receive,
        {},
        '',
        toTemplate.weight,
        addedWeight,
      );
      const scope = this.#scope(located.context);
      await this.#countAction(tx, actor.id, scope, located.context.party?.id ?? null);
      const base = this.#base(actor, located.context, scope);
      // Named with its owner, as a move's locations are: every character's first container is a Backpack.
      const where = {
        name: `${located.context.container.name} (${located.context.ownerName})`,
        id: containerId,
      };
      const summary = `${actor.username} converted ${formatEnUs(plan.spend)} ${input.from} into ${formatEnUs(plan.receive)} ${input.to} in ${where.name}`;
      await record([
        {
          ...base,
          transactionType: 'currency_conversion',
          itemTemplateId: fromTemplate.id,
          itemName: fromTemplate.name,
          quantity: plan.spend,
          // The amount is in copper, the ledger's one unit for money (the coins' own unit is the item).
          amountCp: plan.spend * copperPer[input.from],
          currency: 'cp',
          sourceContainerId: where.id,
          sourceName: where.name,
          summary,
        },
        {
          ...base,
          // One exchange is one inventory action (DESIGN §5): the coins given count it, not these again.
          scope: null,
          transactionType: 'currency_conversion',
          itemTemplateId: toTemplate.id,
          itemInstanceId: created[0] ?? null,
          itemName: toTemplate.name,
          quantity: plan.receive,
          amountCp: plan.receive * copperPer[input.to],
          currency: 'cp',
          destinationContainerId: where.id,
          destinationName: where.name,
          // Each row says what it is, so the activity list does not read as two conversions.
          summary: `${actor.username} got ${formatEnUs(plan.receive)} ${input.to} for ${formatEnUs(plan.spend)} ${input.from} in ${where.name}`,
        },
      ]);
      // Answered as committed: the container may be deleted (or its party left) once the locks are gone.
      return this.#containerJson(tx, actor.id, containerId, located);
    });
  }

  /** Moves `quantity` of a stack between two locked containers, stacking on arrival (DESIGN §4). */
  async #moveWithin(
    tx: Executor,
    record: RecordLedger,
    actor: LedgerActor,
    instance: InstanceRow,
    sourceId: string,
    targetId: string,
    quantity: number,
    /**
     * What the caller already read under its locks: the move's rows and both containers located; and
     * `endsTransaction` when the move is the last thing its transaction does.
     */
    known: {
      reads?: MoveReads;
      located?: Map<string, Located>;
      endsTransaction?: boolean;
      /** Changes the move's ledger row before it is written (an undo links it to the entry it reverts). */
      decorate?: (entry: LedgerEntry) => LedgerEntry;
      /**
       * The players of the characters the move takes items from or puts them into are told, as of a transfer
       * or of an undo (a deletion's moves are told once for all of them, by the deletion).
       */
      tellOwner?: 'transfer' | 'undo';
    } = {},
  ) {
    // Topping up a stack from itself and then deleting it would lose the items with no ledger row.
    if (sourceId === targetId) {
      throw AppError.validation(
        [{ field: 'target_container_id', message: inventoryMessages.sameContainer }],
        inventoryMessages.sameContainer,
      );
    }
    const located = known.located ?? (await this.#locateMany(tx, actor.id, [sourceId, targetId]));
    const source = located.get(sourceId);
    if (!source) throw AppError.notFound('Container not found.');
    const target = located.get(targetId);
    if (!target) throw AppError.notFound('Container not found.');
    policy.assertCanAct(source.access);
    policy.assertCanAct(target.access);
    // Items from outside a party are new to it, as if conjured there. Another character's container in no
    // party is asked about again: it may have joined one while this move waited for its lock.
    const targetCharacter = target.context.character;
    const targetParty =
      target.context.party ??
      (targetCharacter && targetCharacter.id !== source.context.character?.id
        ? await partyOfCharacterNow(tx, targetCharacter.id)
        : null);
    // A player in two campaigns must not carry one party's stash into the other: each party's ledger,
    // activity and live updates would tell only one side of it (the other's stash just shrinks).
    if (targetParty && source.context.party && targetParty.id !== source.context.party.id) {
      throw AppError.validation([{ field: 'target_container_id', message: inventoryMessages.otherParty }]);
    }
    if (targetParty && targetParty.id !== source.context.party?.id) {
      await assertMayConjure(
        tx,
        actor.id,
        { party: targetParty },
        () => new AppError('FORBIDDEN', partyMessages.importGmOnly),
      );
    }
    const partyInvolved = !source.context.character || !target.context.character;
    const scope = partyInvolved ? 'party' : 'personal';
    // Written before the move, whose write may carry the COMMIT; a refused move rolls it back with it.
    // A move into another character reads as a give; within one character (the GM sorting a player's bags)
    // as the move it is. Each player someone else moved things for is told once (the live notices are
    // carried by the ledger row's details, as a give's are).
    const sourceCharacter = source.context.character;
    const told = known.tellOwner
      ? await this.#tellOwners(tx, actor, source.context, target.context, async (intoAnother) => {
          const template = known.reads?.template ?? (await repo.template(tx, instance.itemTemplateId));
          const name = template
            ? effectiveFacts(templateFacts(template), instance.instanceData).name
            : 'items';
          const given = `${formatEnUs(quantity)} × ${name}`;
          if (known.tellOwner === 'undo') {
            const sentence = undoSentence(actor.username, given, source.context, target.context);
            return { sentence, recipientNotice: sentence };
          }
          return {
            sentence: intoAnother
              ? giveSentence(actor, sourceCharacter, given, intoAnother.name)
              : moveSummary(actor.username, quantity, name, source.context, target.context),
            recipientNotice: giveSentence(actor, sourceCharacter, given),
          };
        })
      : {};
    const partyId = target.context.party?.id ?? source.context.party?.id ?? null;
    // The stack is locked in the source container by the caller: its owner is the source's character.
    // Its ledger row is made (and the allowance counted) once the move is checked, before it writes.
    const { template, targetIds, sourceLeft, rows, transactionIds } = await this.#moveStack(
      tx,
      instance.id,
      target.context,
      quantity,
      known.reads ?? { instance, sourceCharacterId: source.context.container.characterId },
      {
        record,
        endsTransaction: known.endsTransaction ?? false,
        entry: async ({ stackId, template, name }) => {
          // The subscription read with the lock for the party the action counts in (either container's
          // when neither has one: the read then asks about no party).
          const read = target.context.party?.id === partyId ? target.subscription : source.subscription;
          await this.#countAction(tx, actor.id, scope, partyId, read);
          const entry: LedgerEntry = {
            transactionType: transferType(source.context, target.context, actor.id),
            partyId,
            characterId: source.context.character?.id ?? target.context.character?.id ?? null,
            actorId: actor.id,
            actorName: actor.username,
            targetName: target.context.ownerName,
            targetId: target.context.ownerId,
            itemTemplateId: template.id,
            itemInstanceId: stackId,
            itemName: name,
            quantity,
            sourceContainerId: sourceId,
            sourceName: `${source.context.container.name} (${source.context.ownerName})`,
            destinationContainerId: targetId,
            destinationName: `${target.context.container.name} (${target.context.ownerName})`,
            scope,
            summary: moveSummary(actor.username, quantity, name, source.context, target.context),
            ...(Object.keys(told).length > 0 ? { details: told } : {}),
          };
          return known.decorate ? known.decorate(entry) : entry;
        },
      },
    );
    return { moved: quantity, sourceLeft, targetIds, transactionIds, rows, template };
  }

  /**
   * Moves `quantity` of a locked stack into a locked container (capacity, stacking), leaving the source
   * stack smaller or gone. No access check: the caller does it, and writes the ledger row, or hands
   * `ledger` to have it written with the move's writes.
   */
  async #moveStack(
    tx: Executor,
    instanceId: string,
    target: ContainerContext,
    quantity: number,
    /** The stack as the caller already locked it (and what else it read with it). */
    locked?: MoveReads,
    /**
     * The move's ledger row, when the caller writes it with the move (transfers); `endsTransaction` when
     * the move is the last thing its transaction does.
     */
    ledger?: { record: RecordLedger; entry: MoveLedger; endsTransaction?: boolean },
    options: PlacementOptions = {},
  ) {
    const reads = locked ?? (await repo.lockMove(tx, instanceId, target.container.id));
    if (!reads) throw AppError.notFound('Item not found.');
    const { instance, sourceCharacterId } = reads;
    const template = reads.template ?? (await repo.template(tx, instance.itemTemplateId));
    if (!template) throw AppError.notFound('Item not found.');
    const facts = effectiveFacts(templateFacts(template), instance.instanceData);
    const instanceData =
      sourceCharacterId === target.container.characterId
        ? instance.instanceData
        : withoutPersonalState(instance.instanceData);
    const sourceLeft = quantity < instance.quantity;
    // What stays of the source stack is written with the target's top-ups, in one statement.
    const placed = await this.#placeRows(
      tx,
      target,
      template,
      quantity,
      instanceData,
      instance.notes,
      facts.weight,
      undefined,
      {
        existing: reads.targetStacks,
        nameOwner: options.nameOwner ?? false,
        alongside: sourceLeft ? [{ id: instance.id, quantity: instance.quantity - quantity }] : [],
        ...(ledger
          ? {
              ledger: {
                record: ledger.record,
                entry: (stackId: string | null) => ledger.entry({ stackId, template, name: facts.name }),
                // The source stack emptied is deleted after the placement: that statement is then the last.
                endsTransaction: (ledger.endsTransaction ?? false) && sourceLeft,
              },
            }
          : {}),
      },
    );
    if (!sourceLeft) await repo.deleteInstance(tx, instance.id);
    return {
      instance,
      template,
      facts,
      targetIds: placed.ids,
      sourceLeft,
      rows: placed.rows,
      transactionIds: placed.transactionIds,
    };
  }

  /**
   * Puts `quantity` of a template into a container, topping up plain stacks first, after checking the
   * container's capacity. Returns the ids of the stacks that received items.
   */
  async #place(
    tx: Executor,
    context: ContainerContext,
    template: TemplateRow,
    quantity: number,
    instanceData: Record<string, unknown>,
    notes: string,
    unitWeight: number,
    weightOverride?: number,
  ): Promise<string[]> {
    return (
      await this.#placeRows(tx, context, template, quantity, instanceData, notes, unitWeight, weightOverride)
    ).ids;
  }

  async #stockNew(
    tx: Executor,
    context: ContainerContext,
    lines: { template: TemplateRow; quantity: number }[],
  ): Promise<string[][]> {
    if (new Set(lines.map((line) => line.template.id)).size < lines.length) {
      // A later line of a template would top up the stacks of an earlier one, which are not written yet.
      throw new Error('stockNew takes each template once');
    }
    const stacks: { line: number; templateId: string; quantity: number }[] = [];
    const coming = { weight: 0, slots: 0 };
    for (const [line, { template, quantity }] of lines.entries()) {
      const weight = template.weight * quantity;
      // The container is new: no stack of its own to top up, and the lines before this one count as coming.
      const { plan } = await this.#planPlacement(tx, context, template, quantity, {}, weight, {
        known: [],
        coming: { ...coming },
      });
      for (const size of plan.newStacks) stacks.push({ line, templateId: template.id, quantity: size });
      coming.weight += weight;
      coming.slots += plan.newStacks.length;
    }
    const ids = await repo.insertStacks(
      tx,
      context.container.id,
      stacks.map(({ templateId, quantity }) => ({ itemTemplateId: templateId, quantity })),
    );
    const byLine: string[][] = lines.map(() => []);
    for (const [index, stack] of stacks.entries()) {
      const id = ids[index];
      if (id !== undefined) byLine[stack.line]?.push(id);
    }
    return byLine;
  }

  /**
   * How `quantity` of a template would go into a container (top-ups of its plain stacks, new stacks), once
   * checked: the stack limits and the container's capacity. Writes nothing.
   */
  async #planPlacement(
    tx: Executor,
    context: ContainerContext,
    template: TemplateRow,
    quantity: number,
    instanceData: Record<string, unknown>,
    weight: number,
    options: { known?: InstanceRow[] | undefined; coming?: Addition } & PlacementOptions = {},
  ) {
    const unique = keepsOwnStack(instanceData);
    const existing = unique
      ? []
      : (options.known ?? (await repo.plainStacks(tx, context.container.id, template.id))).filter(
          (s) => !keepsOwnStack(s.instanceData),
        );
    const plan = unique
      ? {
          topUps: [],
          newStacks:
            template.stackSize > 0 && quantity > template.stackSize
              ? splitInto(quantity, template.stackSize)
              : [quantity],
        }
      : planStacking(existing, quantity, template.stackSize);
    if (plan.newStacks.length > MAX_NEW_STACKS) {
      throw AppError.validation(
        [{ field: 'quantity', message: inventoryMessages.tooManyStacks }],
        inventoryMessages.tooManyStacks,
      );
    }
    const toppedUp = plan.topUps.map((t) => (existing.find((s) => s.id === t.id)?.quantity ?? 0) + t.add);
    if ([...plan.newStacks, ...toppedUp].some((size) => size > MAX_STACK_QUANTITY)) {
      // Said of what arrives and where: a sale of one item can be refused for its proceeds' coins.
      const message = inventoryMessages.stackFull(
        template.name,
        options.nameOwner ? ownedContainerName(context) : context.container.name,
      );
      throw AppError.validation([{ field: 'quantity', message }], message);
    }
    const coming = options.coming ?? { weight: 0, slots: 0 };
    await this.#assertFits(tx, context, {
      weight: weight + coming.weight,
      slots: plan.newStacks.length + coming.slots,
    });
    return { existing, plan };
  }

  /**
   * Refuses, as the move itself would, when a stack's `quantity` could not go into the container now: for
   * a change that moves the goods later (a purchase request approved by the GM).
   */
  async #assertRoomFor(
    tx: Executor,
    target: ContainerContext,
    instanceId: string,
    quantity: number,
    coming: Addition = { weight: 0, slots: 0 },
  ) {
    const instance = await repo.instance(tx, instanceId);
    if (!instance) throw AppError.notFound('Item not found.');
    const template = await repo.template(tx, instance.itemTemplateId);
    if (!template) throw AppError.notFound('Item not found.');
    const facts = effectiveFacts(templateFacts(template), instance.instanceData);
    const instanceData = withoutPersonalState(instance.instanceData);
    await this.#planPlacement(tx, target, template, quantity, instanceData, facts.weight * quantity, {
      coming,
    });
  }

  /**
   * `#place`, answering the rows it wrote too. `existing` are the container's stacks of the template when
   * the caller locked them already; `alongside` are other stacks' new quantities, written in the same
   * statement as the top-ups. `ledger` makes the placement's ledger row once it is checked: with the
   * top-ups when there are some (one statement), after the new stacks otherwise (their ids name it).
   */
  async #placeRows(
    tx: Executor,
    context: ContainerContext,
    template: TemplateRow,
    quantity: number,
    instanceData: Record<string, unknown>,
    notes: string,
    unitWeight: number,
    weightOverride?: number,
    extra: PlacementOptions & {
      existing?: InstanceRow[] | undefined;
      alongside?: { id: string; quantity: number }[];
      ledger?: {
        record: RecordLedger;
        entry: (stackId: string | null) => Promise<LedgerEntry>;
        /** The placement is the last thing its transaction does. */
        endsTransaction?: boolean;
      };
    } = {},
  ): Promise<{ ids: string[]; rows: Map<string, InstanceRow>; transactionIds: string[] }> {
    const { existing, plan } = await this.#planPlacement(
      tx,
      context,
      template,
      quantity,
      instanceData,
      weightOverride ?? unitWeight * quantity,
      { known: extra.existing, nameOwner: extra.nameOwner ?? false },
    );
    const ids: string[] = [];
    const changes: { id: string; quantity: number }[] = [];
    for (const topUp of plan.topUps) {
      const stack = existing.find((s) => s.id === topUp.id);
      if (!stack) continue;
      changes.push({ id: stack.id, quantity: stack.quantity + topUp.add });
      ids.push(stack.id);
    }
    const quantities = [...changes, ...(extra.alongside ?? [])];
    let transactionIds: string[] = [];
    let updated: InstanceRow[];
    const firstTopUp = ids[0];
    if (extra.ledger && firstTopUp !== undefined) {
      // With no new stack to insert after it, this statement is the transaction's last.
      const written = await extra.ledger.record.withQuantities(
        await extra.ledger.entry(firstTopUp),
        quantities,
        {
          commits: (extra.ledger.endsTransaction ?? false) && plan.newStacks.length === 0,
        },
      );
      updated = written.rows;
      transactionIds = [written.id];
    } else {
      updated = await repo.setQuantities(tx, quantities);
    }
    const rows = new Map(updated.map((row) => [row.id, row]));
    for (const size of plan.newStacks) {
      const created = await repo.insertInstance(tx, {
        containerId: context.container.id,
        itemTemplateId: template.id,
        quantity: size,
        instanceData,
        notes,
      });
      ids.push(created.id);
      rows.set(created.id, created);
    }
    if (extra.ledger && transactionIds.length === 0) {
      transactionIds = await extra.ledger.record(await extra.ledger.entry(ids[0] ?? null));
    }
    return { ids, rows, transactionIds };
  }

  /** `field` is the request's field the refusal names: the container items go to, unless an edit says otherwise. */
  async #assertFits(
    tx: Executor,
    context: ContainerContext,
    addition: Addition,
    field = 'target_container_id',
  ) {
    const enforces = enforcedLimits(context.party?.encumbranceStyle ?? null);
    const weightChecked =
      enforces.weight && limitOf(context.container.maxWeight) !== null && addition.weight > 0;
    const slotsChecked = enforces.slots && limitOf(context.container.maxSlots) !== null && addition.slots > 0;
    // Nothing could be refused (no enforced limit, or nothing added): no need to sum the container.
    if (!weightChecked && !slotsChecked) return;
    const usage = (await repo.usage(tx, [context.container.id])).get(context.container.id) ?? {
      weight: 0,
      slots: 0,
      valueCp: 0,
    };
    const refusal = capacityRefusal({
      maxWeight: context.container.maxWeight,
      maxSlots: context.container.maxSlots,
      usedWeight: usage.weight,
      usedSlots: usage.slots,
      addWeight: addition.weight,
      addSlots: addition.slots,
      enforces,
    });
    if (refusal) {
      throw new AppError('CAPACITY_EXCEEDED', refusal, {
        details: [{ field, message: refusal }],
      });
    }
  }

  /**
   * Every inventory action counts against the actor's monthly allowance (DESIGN §5), in this transaction.
   * Every action of this service on a party's own containers (the stash) is a party action and passes
   * here, so this is the one place that gates it: spec/01 §3 leaves party_collaboration out of Free.
   * Shops and loot count through `moves` without it: their trades have features of their own
   * (decisions.md, "What each feature flag gates").
   */
  /** `read`: the user's subscription as already read in this transaction for `partyId`, if it was. */
  async #countAction(
    tx: Executor,
    userId: string,
    scope: 'personal' | 'party',
    partyId: string | null,
    read?: SubscriptionRead,
  ) {
    if (scope === 'party' && partyId) {
      await this.entitlements.requireFeatureAndLimit(
        tx,
        userId,
        'party_collaboration',
        'inventory_actions_party_monthly',
        { partyId, ...(read ? { read } : {}) },
      );
      return;
    }
    await this.#countAllowance(tx, userId, scope, partyId, read);
  }

  async #countAllowance(
    tx: Executor,
    userId: string,
    scope: 'personal' | 'party',
    partyId: string | null,
    read?: SubscriptionRead,
  ) {
    await this.entitlements.requireLimit(
      tx,
      userId,
      scope === 'party' ? 'inventory_actions_party_monthly' : 'inventory_actions_personal_monthly',
      1,
      { ...(partyId ? { partyId } : {}), ...(read ? { read } : {}) },
    );
  }

  #scope(context: ContainerContext): 'personal' | 'party' {
    return context.character ? 'personal' : 'party';
  }

  #base(actor: LedgerActor, context: ContainerContext, scope: 'personal' | 'party') {
    return {
      partyId: context.party?.id ?? null,
      characterId: context.character?.id ?? null,
      actorId: actor.id,
      actorName: actor.username,
      targetName: context.ownerName,
      targetId: context.ownerId,
      scope,
    };
  }

  /** The character whose container holds the stack, if a character's. */
  async #owningCharacterId(tx: Executor, instanceId: string): Promise<string | null> {
    const instance = await repo.instance(tx, instanceId);
    if (!instance) return null;
    return (await repo.containerCharacterId(tx, instance.containerId)) ?? null;
  }

  /**
   * SRD "Attunement": only an item that requires it, only by a character, and no more than three at a time
   * (a stack of n counts n). The caller holds the character's lock (updateInstance), so this count is final.
   */
  async #assertAttunementAllowed(
    tx: Executor,
    current: { instance: InstanceRow; template: TemplateRow; context: ContainerContext },
    instanceData: Record<string, unknown>,
    quantity: number,
  ) {
    if (instanceData.is_attuned !== true) return;
    const wasAttuned = current.instance.instanceData.is_attuned === true;
    if (wasAttuned && quantity <= current.instance.quantity) return;
    const refuse = (message: string) =>
      AppError.validation([{ field: 'item_instance.instance_data.is_attuned', message }], message);
    if (!wasAttuned && !isAttunable(current.template)) throw refuse(inventoryMessages.notAttunable);
    const character = current.context.character;
    if (!character) throw refuse(inventoryMessages.attuneOnCharacter);
    const others = await repo.attunedCount(tx, character.id, current.instance.id);
    if (others + quantity > MAX_ATTUNED_ITEMS) throw refuse(inventoryMessages.attunementLimit);
  }

  async #lockInstanceForAct(tx: Executor, userId: string, instanceId: string) {
    const peek = await repo.instance(tx, instanceId);
    if (!peek) throw AppError.notFound('Item not found.');
    await repo.lockContainers(tx, [peek.containerId]);
    const instance = await repo.lockInstance(tx, instanceId);
    if (!instance || instance.containerId !== peek.containerId) {
      throw new AppError('CONFLICT', 'This item moved while you were changing it. Refresh and try again.');
    }
    const located = await this.#locate(tx, userId, instance.containerId);
    if (!located.access.canRead) throw AppError.notFound('Item not found.');
    policy.assertCanAct(located.access);
    const template = await repo.template(tx, instance.itemTemplateId);
    if (!template) throw AppError.notFound('Item not found.');
    return { instance, template, located };
  }

  /** Locks containers (in id order) and locates them for the user, in one statement. */
  async #lockAndLocate(tx: Executor, userId: string, containerIds: string[]): Promise<Map<string, Located>> {
    // The user's subscription rides with the lock, read for each container's party: the allowance
    // check of the action then sends no statement of its own to know the tier.
    const found = await repo.lockContextsForUser(
      tx,
      userId,
      containerIds,
      this.entitlements.subscriptionReadSql('$1', 'p.id'),
    );
    const located = this.#toLocated(userId, found);
    for (const [id, row] of found) {
      const place = located.get(id);
      if (place) place.subscription = this.entitlements.readSubscription(row.extra);
    }
    return located;
  }

  /** #locate for several containers in one query, whatever their number. */
  async #locateMany(db: Executor, userId: string, containerIds: string[]): Promise<Map<string, Located>> {
    return this.#toLocated(userId, await repo.contextsForUser(db, userId, containerIds));
  }

  #toLocated(userId: string, found: Awaited<ReturnType<typeof repo.contextsForUser>>): Map<string, Located> {
    const located = new Map<string, Located>();
    for (const [id, row] of found) located.set(id, this.#toLocatedOne(userId, row));
    return located;
  }

  #toLocatedOne(
    userId: string,
    {
      context,
      role,
      hasCharacter,
    }: { context: ContainerContext; role: MembershipRole | null; hasCharacter: boolean },
  ): Located {
    const membership = context.party && role ? { role } : undefined;
    return {
      context,
      access: policy.containerAccess(context, userId, membership, Boolean(membership) && hasCharacter),
    };
  }

  /** The container with the user's access to it, in one statement (its party, role and character). */
  async #locate(db: Executor, userId: string, containerId: string): Promise<Located> {
    const found = await repo.contextForItems(db, userId, containerId, false);
    if (!found) throw AppError.notFound('Container not found.');
    const { context, role, hasCharacter } = found;
    const membership = context.party && role ? { role } : undefined;
    return {
      context,
      access: policy.containerAccess(context, userId, membership, Boolean(membership) && hasCharacter),
      role: membership?.role,
    };
  }

  #assertOwnedBy(context: ContainerContext, owner: Owner | undefined) {
    if (!owner) return;
    const matches =
      'characterId' in owner
        ? context.container.characterId === owner.characterId
        : context.container.partyId === owner.partyId;
    if (!matches) throw AppError.notFound('Container not found.');
  }

  async #assertOwnerReadable(db: Executor, userId: string, owner: Owner) {
    if ('characterId' in owner) {
      const containers = await repo.listForOwner(db, owner);
      const primary = containers[0];
      if (!primary) {
        const exists = await this.#characterExists(db, owner.characterId);
        if (!exists) throw AppError.notFound('Character not found.');
        return;
      }
      policy.assertCanRead((await this.#locate(db, userId, primary.id)).access);
      return;
    }
    if (!(await partiesRepository.membership(db, owner.partyId, userId)))
      throw AppError.notFound('Party not found.');
  }

  /**
   * MAX_CONTAINERS_PER_OWNER: the owner's containers, its main container or stash included. Counted under
   * the owner's lock, so that creates sent at once see each other; every create takes it after the plan's
   * checks (and their allowance lock), always in that order. A refusal rolls the counted action back.
   */
  async #assertRoomForContainer(tx: Executor, owner: Owner) {
    await repo.lockOwnerContainers(tx, owner);
    if ((await repo.countForOwner(tx, owner)) < MAX_CONTAINERS_PER_OWNER) return;
    const message = inventoryMessages.containerLimit('characterId' in owner ? 'character' : 'party');
    throw AppError.validation([{ field: 'container', message }], message);
  }

  async #assertOwnerActable(
    tx: Executor,
    userId: string,
    owner: Owner,
  ): Promise<{ name: string; partyId: string | null }> {
    if ('characterId' in owner) {
      // Its player may delete the character meanwhile: the new container must not point at a deleted row.
      if (!(await repo.holdCharacter(tx, owner.characterId))) throw AppError.notFound('Character not found.');
      const [primary] = await repo.listForOwner(tx, owner);
      if (!primary) throw AppError.notFound('Character not found.');
      const located = await this.#locate(tx, userId, primary.id);
      policy.assertCanAct(located.access);
      return { name: located.context.ownerName, partyId: located.context.party?.id ?? null };
    }
    // The read of a party container decides by the same rule, fed by the same SQL (parties.repository).
    // Held until the container is in: a deletion of the party takes turns with it, and then finds the new
    // container among what it destroys, instead of the container's reference meeting the deleted party.
    const found = await partiesRepository.findPartyWithAccess(tx, owner.partyId, userId, { lock: 'share' });
    if (!found) throw AppError.notFound('Party not found.');
    policy.assertCanAddPartyContainer(found.party, found.role, found.hasCharacter);
    return { name: found.party.name, partyId: found.party.id };
  }

  async #characterExists(db: Executor, characterId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: characters.id })
      .from(characters)
      .where(eq(characters.id, characterId))
      .limit(1);
    return Boolean(row);
  }

  async #readableTemplate(tx: Executor, userId: string, templateId: string): Promise<TemplateRow> {
    const template = await repo.template(tx, templateId);
    const readable =
      template && !template.deletedAt && (template.visibility !== 'private' || template.creatorId === userId);
    if (!template || !readable)
      throw AppError.validation([{ field: 'item_template_id', message: 'That item does not exist.' }]);
    return template;
  }

  /** Two statements for the five coins (the coins, then their stacks), not two for each. */
  async #purse(tx: Executor, containerId: string): Promise<ContainerPurse> {
    const coins = await this.#coins(tx);
    const currencyOf = new Map(currencies.map((currency) => [coins[currency].id, currency]));
    const stacks: ContainerPurse['stacks'] = { cp: [], sp: [], ep: [], gp: [], pp: [] };
    const held = await repo.stacksOfTemplates(tx, containerId, [...currencyOf.keys()]);
    for (const stack of held) {
      const currency = currencyOf.get(stack.itemTemplateId);
      if (currency && !hasOverrides(stack.instanceData)) stacks[currency].push(stack);
    }
    const purse = emptyPurse();
    for (const currency of currencies)
      purse[currency] = stacks[currency].reduce((sum, s) => sum + s.quantity, 0);
    return { purse, stacks, coins };
  }

  async #coins(tx: Executor): Promise<Record<Currency, TemplateRow>> {
    const rows = await repo.templatesBySystemKey(tx, currencies.map(coinSystemKey));
    const coins = {} as Record<Currency, TemplateRow>;
    for (const currency of currencies) {
      const coin = rows.find((row) => row.systemKey === coinSystemKey(currency));
      if (!coin) throw new AppError('INTERNAL_SERVER_ERROR', `The ${currency} coin is not seeded.`);
      coins[currency] = coin;
    }
    return coins;
  }

  async #coin(tx: Executor, currency: Currency): Promise<TemplateRow> {
    const [row] = await tx
      .select()
      .from(itemTemplates)
      .where(and(eq(itemTemplates.systemKey, coinSystemKey(currency)), isNotNull(itemTemplates.systemKey)))
      .limit(1);
    if (!row) throw new AppError('INTERNAL_SERVER_ERROR', `The ${currency} coin is not seeded.`);
    return row;
  }

  async #containerJson(
    db: Executor,
    userId: string,
    containerId: string,
    known?: Located,
  ): Promise<Container> {
    const located = known ?? (await this.#locate(db, userId, containerId));
    const usage = (await repo.usage(db, [containerId])).get(containerId);
    return toContainerJson(located.context, usage, located.access.canAct && !located.access.archived);
  }

  async #instanceJson(db: Executor, instanceId: string): Promise<ItemInstance> {
    const [row] = await repo.instancesWithTemplates(db, [instanceId]);
    if (!row) throw AppError.notFound('Item not found.');
    return toInstanceJson(row.instance, row.template);
  }

  /**
   * Stacks a change wrote, in the order given, read in its own transaction: once committed, another
   * request may empty or move them before a read after the commit, and a change that was made would be
   * answered 404 (review "multiproc" 1; README "Changes made once": a 4xx says nothing changed).
   */
  async #instancesJson(tx: Executor, ids: string[]): Promise<ItemInstance[]> {
    const rows = new Map(
      (await repo.instancesWithTemplates(tx, ids)).map((row) => [row.instance.id, row] as const),
    );
    return ids.map((id) => {
      const row = rows.get(id);
      if (!row) throw new AppError('INTERNAL_SERVER_ERROR', 'a stack written in this transaction is missing');
      return toInstanceJson(row.instance, row.template);
    });
  }
}

/** DESIGN §3 paging meta of a list. */
function listMeta(page: number, perPage: number, total: number) {
  return {
    current_page: page,
    per_page: perPage,
    total_count: total,
    total_pages: Math.max(1, Math.ceil(total / perPage)),
  };
}

/** The item filters of spec/02 §7 containers/{id}/items, values in gp turned into copper. */
/** 32 MB of serialized container pages per process unless configured (CONTAINER_PAGE_CACHE_MB). */
const defaultPageCacheBytes = 32 * 1024 * 1024;

/** The page of `items`: its stacks' JSON and where the page stands. */
function itemsPage(
  rows: { instance: InstanceRow; template: InstanceTemplate }[],
  total: number,
  query: ContainerItemsQuery,
) {
  return {
    data: rows.map((r) => toInstanceJson(r.instance, r.template)),
    meta: {
      current_page: query.page,
      per_page: query.per_page,
      total_count: total,
      total_pages: Math.max(1, Math.ceil(total / query.per_page)),
    },
  };
}

/** A container's page of items, by everything of the query that shapes it. */
function pageKey(containerId: string, query: ContainerItemsQuery): string {
  return JSON.stringify([
    containerId,
    query.page,
    query.per_page,
    query.search ?? null,
    query.rarity ?? null,
    query.min_value ?? null,
    query.max_value ?? null,
  ]);
}

function itemFilter(query: {
  page: number;
  per_page: number;
  search?: string | undefined;
  rarity?: string | undefined;
  min_value?: number | undefined;
  max_value?: number | undefined;
}) {
  return {
    page: query.page,
    perPage: query.per_page,
    ...(query.search ? { search: query.search } : {}),
    ...(query.rarity ? { rarity: query.rarity } : {}),
    ...(query.min_value !== undefined ? { minValueCp: Math.round(query.min_value * copperPer.gp) } : {}),
    ...(query.max_value !== undefined ? { maxValueCp: Math.round(query.max_value * copperPer.gp) } : {}),
  };
}

/** A stack past MAX_STACK_QUANTITY could be worth more copper than a JS number holds exactly. */
function stackTooLarge(field = 'quantity'): AppError {
  return AppError.validation(
    [{ field, message: inventoryMessages.stackTooLarge }],
    inventoryMessages.stackTooLarge,
  );
}

function splitInto(quantity: number, size: number): number[] {
  const parts: number[] = [];
  for (let left = quantity; left > 0; left -= size) parts.push(Math.min(size, left));
  return parts;
}

/** spec/02 §6: a character is read by its player and the members of its party; to anyone else it is unknown. */
async function mayReadCharacter(
  db: Executor,
  userId: string,
  character: { userId: string; partyId: string | null } | undefined,
): Promise<boolean> {
  if (!character) return false;
  if (character.userId === userId) return true;
  return (
    character.partyId !== null && Boolean(await partiesRepository.membership(db, character.partyId, userId))
  );
}
