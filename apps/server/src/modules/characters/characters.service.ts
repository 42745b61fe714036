import {
  type Character,
  type CharacterForm,
  type CharacterListItem,
  type CharacterListQuery,
  type CharacterUpdate,
  type CharacterWealth,
  type Container,
  characterMessages,
  type PartyWealth,
} from '@haversack/contracts';
import { and, eq } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.js';
import { containers } from '../../db/schema/inventory.js';
import { AppError } from '../../lib/app-error.js';
import type { EventBus } from '../../realtime/event-bus.js';
import type { DomainEvent } from '../../realtime/events.js';
import { containersRepository } from '../containers/containers.repository.js';
import { assertHoldsNoMoreThan } from '../inventory/capacity-change.js';
import { assertMayConjure } from '../inventory/conjuring-policy.js';
import { type LedgerEntry, ledgerRepository } from '../ledger/ledger.repository.js';
import { partyActivityEvents } from '../ledger/ledger-events.js';
import { partiesRepository } from '../parties/parties.repository.js';
import type { EntitlementService } from '../subscriptions/entitlements.service.js';
import { destroyCharacter } from './character-destruction.js';
import { recordPartyChange } from './character-party-ledger.js';
import { addSums, toCharacterWealthJson, toHoldingJson } from './character-wealth.js';
import { emptySums, characterWealthRepository as wealthRepo } from './character-wealth.repository.js';
import * as policy from './characters.policy.js';
import {
  type CharacterRow,
  type CharacterView,
  charactersRepository as repo,
} from './characters.repository.js';

export const PRIMARY_CONTAINER_NAME = 'Backpack';

function toCharacterJson(view: CharacterView, userId: string): Character {
  const c = view.character;
  return {
    id: c.id,
    user_id: c.userId,
    player_name: view.playerName,
    name: c.name,
    race: c.race,
    character_class: c.characterClass,
    level: c.level,
    notes: c.notes,
    image_url: c.imageUrl,
    max_weight: c.maxWeight,
    max_slots: c.maxSlots,
    party_id: c.partyId,
    party_name: view.partyName,
    primary_container_id: view.primaryContainerId,
    is_owner: c.userId === userId,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

interface Actor {
  id: string;
  username: string;
}

/** Containers of characters the user may read, by character id (InventoryService.containersOfCharacters). */
export type CharacterContainerLister = (
  userId: string,
  characterIds: string[],
) => Promise<Map<string, Container[]>>;

/** Settles, in a character's deletion's transaction, what refers to it; answers the events to publish. */
export type CharacterDeletingHook = (
  tx: Executor,
  characterId: string,
  actor: Actor,
) => Promise<DomainEvent[]>;

/** Settles, in the transaction that takes a character out of a party, what it leaves there; answers events. */
export type CharacterLeavingPartyHook = (
  tx: Executor,
  characterId: string,
  partyId: string,
  actor: Actor,
) => Promise<DomainEvent[]>;

export class CharactersService {
  constructor(
    private readonly db: Database,
    private readonly entitlements: EntitlementService,
    private readonly events: EventBus,
  ) {
    entitlements.registerUsageCounter('characters', (db, userId) => repo.countOwnedBy(db, userId));
  }

  #containerLister: CharacterContainerLister | undefined;
  readonly #deletingHooks: CharacterDeletingHook[] = [];
  readonly #leavingPartyHooks: CharacterLeavingPartyHook[] = [];

  /** What a character's deletion ends elsewhere (its purchase requests), in its transaction. */
  onDeleting(hook: CharacterDeletingHook): void {
    this.#deletingHooks.push(hook);
  }

  /** What a character leaving a party ends there (its purchase requests), in the same transaction. */
  onLeavingParty(hook: CharacterLeavingPartyHook): void {
    this.#leavingPartyHooks.push(hook);
  }

  /** The inventory lists containers (`include=containers`); set once when the app is built. */
  setContainerLister(lister: CharacterContainerLister): void {
    this.#containerLister = lister;
  }

  async list(userId: string, query: CharacterListQuery) {
    if (query.party_id && !(await partiesRepository.membership(this.db, query.party_id, userId))) {
      throw AppError.notFound('Party not found.');
    }
    const { rows, total } = await repo.list(this.db, {
      userId,
      page: query.page,
      perPage: query.per_page,
      ...(query.search ? { search: query.search } : {}),
      ...(query.race ? { race: query.race } : {}),
      ...(query.character_class ? { characterClass: query.character_class } : {}),
      ...(query.min_level !== undefined ? { minLevel: query.min_level } : {}),
      ...(query.max_level !== undefined ? { maxLevel: query.max_level } : {}),
      ...(query.party_id ? { partyId: query.party_id } : {}),
      ...(query.sort ? { sort: query.sort } : {}),
      ...(query.direction ? { direction: query.direction } : {}),
    });
    const list: CharacterListItem[] = rows.map((row) => toCharacterJson(row, userId));
    // spec/01 §3 include=containers: every listed character is one the caller may read.
    const containersOf = query.include?.includes('containers')
      ? await this.#containerLister?.(
          userId,
          list.map((character) => character.id),
        )
      : undefined;
    return {
      data: containersOf ? list.map((c) => ({ ...c, containers: containersOf.get(c.id) ?? [] })) : list,
      meta: {
        current_page: query.page,
        per_page: query.per_page,
        total_count: total,
        total_pages: Math.max(1, Math.ceil(total / query.per_page)),
      },
    };
  }

  /**
   * The party of a character the user may see (their own, or one in a party they belong to), for the
   * subscription calls that take a character_id; undefined when they may not see it.
   */
  async visibleParty(
    db: Executor,
    userId: string,
    id: string,
  ): Promise<{ partyId: string | null } | undefined> {
    const character = await repo.find(db, id);
    if (!character) return undefined;
    const visible =
      character.userId === userId ||
      (character.partyId !== null &&
        Boolean(await partiesRepository.membership(db, character.partyId, userId)));
    return visible ? { partyId: character.partyId } : undefined;
  }

  get(userId: string, id: string): Promise<Character> {
    return this.#read(this.db, userId, id);
  }

  /** The character as `userId` may read it; a write reads its answer in its own transaction with it. */
  async #read(db: Executor, userId: string, id: string): Promise<Character> {
    const view = await repo.view(db, id);
    const member = view?.character.partyId
      ? Boolean(await partiesRepository.membership(db, view.character.partyId, userId))
      : false;
    policy.assertReadable(view?.character, userId, member);
    if (!view) throw AppError.notFound('Character not found.');
    return toCharacterJson(view, userId);
  }

  /**
   * Issue 12 §4 GET characters/{id}/wealth: the purse, wealth and load of a character, read by whoever may
   * read the character (its player and the members of its party).
   */
  async wealth(userId: string, id: string): Promise<CharacterWealth> {
    const view = await repo.view(this.db, id);
    const party = view?.character.partyId
      ? await partiesRepository.findParty(this.db, view.character.partyId)
      : undefined;
    const member = party ? Boolean(await partiesRepository.membership(this.db, party.id, userId)) : false;
    policy.assertReadable(view?.character, userId, member);
    if (!view) throw AppError.notFound('Character not found.');
    const c = view.character;
    const sums = await wealthRepo.forCharacter(this.db, id);
    return toCharacterWealthJson(
      { id: c.id, name: c.name, userId: c.userId, playerName: view.playerName, maxWeight: c.maxWeight },
      sums,
      party?.encumbranceStyle ?? null,
      userId,
    );
  }

  /**
   * Issue 12 §7 GET parties/{id}/wealth: every character of the party, the party's stash and the total, for
   * any member (party members may already look at each other's containers); 404 for everyone else.
   */
  async partyWealth(userId: string, partyId: string): Promise<PartyWealth> {
    // The party and the reader's role in it in one statement, then its characters and sums at once.
    const found = await partiesRepository.findPartyWithAccess(this.db, partyId, userId);
    if (!found?.role) throw AppError.notFound('Party not found.');
    const { party } = found;
    const [people, sums] = await Promise.all([
      wealthRepo.partyCharacters(this.db, partyId),
      wealthRepo.forParty(this.db, partyId),
    ]);
    const characterSums = people.map((c) => sums.get(c.id) ?? emptySums());
    const stashSums = sums.get(null);
    return {
      characters: people.map((c, i) =>
        toCharacterWealthJson(c, characterSums[i] ?? emptySums(), party.encumbranceStyle, userId),
      ),
      stash: stashSums ? toHoldingJson(stashSums) : null,
      totals: toHoldingJson(addSums([...characterSums, stashSums ?? emptySums()])),
    };
  }

  /** spec/02 §5 defaults; DESIGN §4: the primary container is made in the same transaction. */
  async create(actor: Actor, form: CharacterForm): Promise<Character> {
    const created = await this.db.transaction(async (tx) => {
      const partyId = form.party_id ? (await this.#assertAssignable(tx, actor.id, form.party_id)).id : null;
      // A patronage in the target party may lift the limit (DESIGN §5).
      await this.entitlements.requireLimit(tx, actor.id, 'characters', 1, partyId ? { partyId } : {});
      const character = await repo.insert(tx, {
        userId: actor.id,
        partyId,
        name: form.name,
        race: form.race,
        characterClass: form.character_class,
        level: form.level,
        notes: form.notes,
        imageUrl: form.image_url,
        maxWeight: form.max_weight,
        maxSlots: form.max_slots,
      });
      const container = await containersRepository.insert(tx, {
        name: PRIMARY_CONTAINER_NAME,
        characterId: character.id,
        isPrimary: true,
        maxWeight: form.max_weight,
        maxSlots: form.max_slots,
      });
      const base = {
        partyId,
        characterId: character.id,
        actorId: actor.id,
        actorName: actor.username,
        targetName: character.name,
        targetId: character.id,
      };
      const rows: LedgerEntry[] = [
        {
          ...base,
          transactionType: 'character_creation',
          summary: `${actor.username} created ${character.name}`,
        },
        {
          ...base,
          transactionType: 'container_creation',
          destinationContainerId: container.id,
          destinationName: `${container.name} (${character.name})`,
          summary: `${actor.username} created ${container.name} for ${character.name}`,
        },
      ];
      await ledgerRepository.record(tx, rows);
      return { id: character.id, rows, answer: await this.#read(tx, actor.id, character.id) };
    });
    if (form.party_id)
      this.#announce(
        form.party_id,
        actor,
        'character_assigned',
        `${actor.username} brought ${form.name} into the party`,
        created.id,
        created.rows,
      );
    return created.answer;
  }

  async update(actor: Actor, id: string, changes: CharacterUpdate): Promise<Character> {
    const moves = await this.db.transaction(async (tx) => {
      const activity: LedgerEntry[] = [];
      const settled: DomainEvent[] = [];
      // Not `for update`: an approval of its purchase request, holding the shop the leaving hook below waits
      // for, writes rows that refer to the character, and would wait for this lock in turn (a deadlock on
      // PostgreSQL). Two changes of one character still wait for each other.
      const character = await this.#ownedForUpdate(tx, actor.id, id, 'no key update');
      let partyId = character.partyId;
      if (changes.party_id !== undefined && changes.party_id !== character.partyId) {
        if (changes.party_id && character.partyId) {
          // On the Party field, saying how: the move is two saves, out of one party and into the other.
          throw new AppError('CONFLICT', characterMessages.alreadyInParty, {
            details: [{ field: 'character.party_id', message: characterMessages.alreadyInParty }],
          });
        }
        const party = changes.party_id ? await this.#assertAssignable(tx, actor.id, changes.party_id) : null;
        // Its gear would be new to the party: where only the GM adds items, it cannot come in with any.
        if (party) await repo.lockContainersOf(tx, id);
        if (party && (await repo.holdsItems(tx, id))) {
          await assertMayConjure(
            tx,
            actor.id,
            { party },
            () =>
              new AppError('FORBIDDEN', characterMessages.carriesItemsIntoGmOnlyParty, {
                details: [{ field: 'party_id', message: characterMessages.carriesItemsIntoGmOnlyParty }],
              }),
          );
        }
        partyId = party?.id ?? null;
        // Its purchase requests in the party it leaves go back on sale (the shops' hook), before its
        // containers are locked below, as on its deletion: Approve locks the shop, then the buyer's containers.
        if (character.partyId)
          for (const hook of this.#leavingPartyHooks)
            settled.push(...(await hook(tx, id, character.partyId, actor)));
        // The party's ledger accounts for what comes in and goes out with the character (the rows move
        // nothing: character-party-ledger.ts).
        const named = { id, name: changes.name ?? character.name };
        if (character.partyId)
          activity.push(...(await recordPartyChange(tx, named, character.partyId, 'left_party', actor)));
        if (partyId) activity.push(...(await recordPartyChange(tx, named, partyId, 'joined_party', actor)));
      }
      await repo.update(tx, id, {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.race !== undefined ? { race: changes.race } : {}),
        ...(changes.character_class !== undefined ? { characterClass: changes.character_class } : {}),
        ...(changes.level !== undefined ? { level: changes.level } : {}),
        ...(changes.notes !== undefined ? { notes: changes.notes } : {}),
        ...(changes.image_url !== undefined ? { imageUrl: changes.image_url } : {}),
        ...(changes.max_weight !== undefined ? { maxWeight: changes.max_weight } : {}),
        ...(changes.max_slots !== undefined ? { maxSlots: changes.max_slots } : {}),
        partyId,
      });
      // The primary container carries the character's own capacity, under the same rule as its own edit:
      // never below what it holds, where the party (the one it is in after this change) enforces it.
      if (changes.max_weight !== undefined || changes.max_slots !== undefined) {
        const [primary] = await tx
          .select({ id: containers.id, name: containers.name })
          .from(containers)
          .where(and(eq(containers.characterId, id), eq(containers.isPrimary, true)))
          .for('update');
        const party = partyId ? await partiesRepository.findParty(tx, partyId) : undefined;
        if (primary)
          await assertHoldsNoMoreThan(
            tx,
            { id: primary.id, style: party?.encumbranceStyle ?? null },
            changes,
            { prefix: 'character', holder: `${primary.name}, ${character.name}’s main container,` },
          );
        await tx
          .update(containers)
          .set({
            ...(changes.max_weight !== undefined ? { maxWeight: changes.max_weight } : {}),
            ...(changes.max_slots !== undefined ? { maxSlots: changes.max_slots } : {}),
            updatedAt: new Date(),
          })
          .where(and(eq(containers.characterId, id), eq(containers.isPrimary, true)));
      }
      return {
        before: character.partyId,
        after: partyId,
        name: changes.name ?? character.name,
        activity,
        settled,
        answer: await this.#read(tx, actor.id, id),
      };
    });
    this.events.publish(moves.settled);
    if (moves.before && moves.before !== moves.after) {
      this.#announce(
        moves.before,
        actor,
        'character_removed',
        `${actor.username} took ${moves.name} out of the party`,
        id,
        moves.activity.filter((row) => row.partyId === moves.before),
      );
    }
    if (moves.after && moves.before !== moves.after) {
      this.#announce(
        moves.after,
        actor,
        'character_assigned',
        `${actor.username} brought ${moves.name} into the party`,
        id,
        moves.activity.filter((row) => row.partyId === moves.after),
      );
    } else if (moves.after) {
      this.#announce(moves.after, actor, 'character_updated', `${actor.username} updated ${moves.name}`, id);
    }
    return moves.answer;
  }

  async delete(actor: Actor, id: string): Promise<void> {
    const gone = await this.db.transaction(async (tx) => {
      // Held, at first, as a change holds it (update): an approval of its purchase request, holding the shop
      // the hook below waits for, writes rows that refer to the character, which `for update` would make
      // wait in turn (a deadlock on PostgreSQL).
      await this.#ownedForUpdate(tx, actor.id, id, 'no key update');
      // Its purchase requests go back on sale (the shops' hook) before its containers are locked: Approve
      // locks the shop, then the buyer's containers.
      const settled: DomainEvent[] = [];
      for (const hook of this.#deletingHooks) settled.push(...(await hook(tx, id, actor)));
      // Then as a deletion holds it, read again: nothing may refer to it anew until it is gone.
      const character = await this.#ownedForUpdate(tx, actor.id, id);
      const rows = await destroyCharacter(tx, character, actor);
      return { character, rows, settled };
    });
    this.events.publish(gone.settled);
    if (gone.character.partyId)
      this.#announce(
        gone.character.partyId,
        actor,
        'character_removed',
        `${actor.username} deleted ${gone.character.name}`,
        id,
        gone.rows,
      );
  }

  /**
   * spec/02 §7 PartyChannel, after the commit; with the ledger rows the change wrote to the party, which the
   * Activity tab is told about too (`party_activity`).
   */
  #announce(
    partyId: string,
    actor: Actor,
    action: string,
    summary: string,
    characterId: string,
    activity: LedgerEntry[] = [],
  ) {
    this.events.publish([
      {
        channel: 'PartyChannel',
        partyId,
        action,
        actor: { id: actor.id, name: actor.username },
        summary,
        ids: { character_id: characterId },
      },
      ...partyActivityEvents(activity),
    ]);
  }

  async #ownedForUpdate(
    tx: Executor,
    userId: string,
    id: string,
    lock: true | 'no key update' = true,
  ): Promise<CharacterRow> {
    const character = await repo.find(tx, id, { lock });
    const member = character?.partyId
      ? Boolean(await partiesRepository.membership(tx, character.partyId, userId))
      : false;
    policy.assertReadable(character, userId, member);
    policy.assertOwner(character, userId);
    return character;
  }

  /** spec/02 §6: only your own characters, only into a party you belong to that is not archived. */
  async #assertAssignable(tx: Executor, userId: string, partyId: string) {
    // Held until the character is in: a deletion of the party takes turns with it, and then lets the new
    // character go with the rest, instead of the character's reference meeting the deleted party (a 500).
    const party = await partiesRepository.findParty(tx, partyId, { lock: 'share' });
    const membership = party ? await partiesRepository.membership(tx, partyId, userId) : undefined;
    if (!party || !membership) {
      throw new AppError('FORBIDDEN', characterMessages.notPartyMember, {
        details: [{ field: 'party_id', message: characterMessages.notPartyMember }],
      });
    }
    if (party.isArchived) {
      throw new AppError('FORBIDDEN', characterMessages.archivedParty, {
        details: [{ field: 'party_id', message: characterMessages.archivedParty }],
      });
    }
    return party;
  }
}
