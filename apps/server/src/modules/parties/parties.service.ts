import {
  type Party,
  type PartyForm,
  type PartyInvitation,
  type PartyListItem,
  type PartyListQuery,
  type PartyMember,
  type PartyPreview,
  type PartyRole,
  type PartyUpdate,
  partyMessages,
} from '@haversack/contracts';
import type { Database, Executor } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import type { EventBus } from '../../realtime/event-bus.js';
import type { DomainEvent } from '../../realtime/events.js';
import { accountsRepository } from '../accounts/accounts.repository.js';
import { recordPartyChange } from '../characters/character-party-ledger.js';
import { inventoryRepository } from '../inventory/inventory.repository.js';
import type { LedgerActor } from '../inventory/inventory-ledger.js';
import { type LedgerEntry, ledgerRepository } from '../ledger/ledger.repository.js';
import { partyActivityEvents } from '../ledger/ledger-events.js';
import { type Notice, type NoticeBoard, noNoticeBoard, noticeLinks } from '../notifications/notices.js';
import type { EntitlementService } from '../subscriptions/entitlements.service.js';
import { generateJoinCode, isWellFormedJoinCode } from './join-codes.js';
import { toInvitationJson, toMemberJson, toPartyJson, toPreviewJson } from './parties.json.js';
import * as policy from './parties.policy.js';
import { type MembershipRow, type PartyRow, partiesRepository as repo } from './parties.repository.js';
import { destroyParty, lockPartyHoldings } from './party-destruction.js';

/** The container every new party starts with (issue 12). */
export const PARTY_STASH_NAME = 'Party Stash';

/**
 * What leaving a party ends elsewhere (patronages), so the parties service need not know the details;
 * `actorId` is who left, or the GM who removed them. The hook answers the events to publish after the
 * commit, and adds to `told` the users it left notices for, to be told live then too.
 */
export type MemberLeftHook = (
  tx: Executor,
  partyId: string,
  userId: string,
  actorId: string,
  told: string[],
) => Promise<DomainEvent[]>;

/**
 * What a member settles while still a member, just before leaving or being removed (their purchase
 * requests), in transactions of its own; `removedById` is the GM or manager who removes them.
 */
export type MemberLeavingHook = (
  partyId: string,
  userId: string,
  removedById: string | null,
) => Promise<unknown>;

interface Deps {
  db: Database;
  entitlements: EntitlementService;
  events: EventBus;
}

/** What a member whose role changed is told, live, wherever they are in the party (party-events.ts). */
export const roleNotices = {
  handedOver: (actor: string, party: string) =>
    `${actor} handed ${party} to you: you are its Game Master now.`,
  roleChanged: (actor: string, role: string, party: string) =>
    `${actor} made you ${role === 'observer' ? 'an observer' : `a ${role}`} in ${party}.`,
  ownerDeleted: (party: string) =>
    `The account of ${party}’s Game Master was deleted: you are its Game Master now.`,
};

/** What the members are told, and find in their notices, when the GM removes them or ends the party. */
export const partyNotices = {
  removed: (actor: string, party: string) => `${actor} removed you from ${party}.`,
  archived: (actor: string, party: string) =>
    `${actor} archived ${party}: you can still look, but nothing in it can be changed until it is unarchived.`,
  unarchived: (actor: string, party: string) => `${actor} unarchived ${party}: it can be changed again.`,
  deleted: (actor: string, party: string) =>
    `${actor} deleted ${party}. Your characters left it with their gear.`,
};

/** Whom a hand-over gives the party to: their membership, locked. */
type HandOverTarget = NonNullable<Awaited<ReturnType<typeof repo.lockHandOverTarget>>> & { userId: string };

export class PartiesService {
  readonly #db: Database;
  readonly #entitlements: EntitlementService;
  readonly #memberLeftHooks: MemberLeftHook[] = [];
  readonly #memberLeavingHooks: MemberLeavingHook[] = [];
  readonly #events: EventBus;
  #notices: NoticeBoard = noNoticeBoard;

  constructor(deps: Deps) {
    this.#db = deps.db;
    this.#entitlements = deps.entitlements;
    this.#events = deps.events;
    deps.entitlements.registerUsageCounter('parties_created', (db, userId) =>
      repo.countCreatedBy(db, userId),
    );
    deps.entitlements.registerUsageCounter('parties_joined', (db, userId) => repo.countJoinedBy(db, userId));
  }

  onMemberLeft(hook: MemberLeftHook): void {
    this.#memberLeftHooks.push(hook);
  }

  onMemberLeaving(hook: MemberLeavingHook): void {
    this.#memberLeavingHooks.push(hook);
  }

  /** Where removals, archiving and deletions leave the members their notices (app.ts). */
  setNoticeBoard(board: NoticeBoard): void {
    this.#notices = board;
  }

  /** A notice of the whole party to each member but the actor (the GM who archived or deleted it). */
  async #noticeToMembers(
    tx: Executor,
    party: PartyRow,
    actor: { id: string; username: string },
    kind: 'party_archived' | 'party_unarchived' | 'party_deleted',
  ): Promise<string[]> {
    const members = await repo.members(tx, party.id);
    const words = {
      party_archived: 'archived',
      party_unarchived: 'unarchived',
      party_deleted: 'deleted',
    } as const;
    const message = partyNotices[words[kind]](actor.username, party.name);
    return this.#notices.write(
      tx,
      members.map(
        (member): Notice => ({
          userId: member.membership.userId,
          actorId: actor.id,
          kind,
          // A deleted party's notices keep its name only (the row goes with it).
          partyId: kind === 'party_deleted' ? null : party.id,
          partyName: party.name,
          message,
          link: kind === 'party_deleted' ? null : noticeLinks.party(party.id, party.name),
        }),
      ),
    );
  }

  /** The leaving hooks run once the departure is known to be allowed; the departure checks again. */
  async #memberLeaving(partyId: string, userId: string, removedById: string | null) {
    for (const hook of this.#memberLeavingHooks) await hook(partyId, userId, removedById);
  }

  async list(userId: string, query: PartyListQuery) {
    const { rows, total } = await repo.list(this.#db, {
      userId,
      publicOnly: query.visibility === 'public',
      page: query.page,
      perPage: query.per_page,
      ...(query.search ? { search: query.search } : {}),
      ...(query.owned !== undefined ? { owned: query.owned } : {}),
      ...(query.member !== undefined ? { member: query.member } : {}),
      ...(query.role ? { role: query.role } : {}),
      ...(query.is_archived !== undefined ? { isArchived: query.is_archived } : {}),
      ...(query.game_system ? { gameSystem: query.game_system } : {}),
      ...(query.sort ? { sort: query.sort } : {}),
      ...(query.direction ? { direction: query.direction } : {}),
    });
    const parties = await this.#toJson(this.#db, userId, rows);
    const data = query.include?.includes('members') ? await this.#withMembers(userId, parties) : parties;
    return {
      data,
      meta: {
        current_page: query.page,
        per_page: query.per_page,
        total_count: total,
        total_pages: Math.max(1, Math.ceil(total / query.per_page)),
      },
    };
  }

  /**
   * spec/01 §3 `include=members`: each party's member list, as GET parties/{id}/members shows it, for the
   * parties the caller belongs to (a public party they have not joined keeps its members to itself).
   */
  async #withMembers(userId: string, parties: Party[]): Promise<PartyListItem[]> {
    const lists = await repo.membersOf(
      this.#db,
      parties.filter((party) => party.is_member).map((party) => party.id),
    );
    return Promise.all(
      parties.map(async (party) => {
        const list = party.is_member ? lists.get(party.id) : undefined;
        if (!list) return party;
        const members = await this.#membersJson(userId, party.id, party.user_role === 'gm', list);
        return { ...party, members };
      }),
    );
  }

  get(userId: string, partyId: string): Promise<Party> {
    return this.#read(this.#db, userId, partyId);
  }

  /** The party as `userId` sees it; a write reads its answer in its own transaction with it. */
  async #read(db: Executor, userId: string, partyId: string): Promise<Party> {
    const party = await repo.findParty(db, partyId);
    const membership = party ? await repo.membership(db, party.id, userId) : undefined;
    policy.assertVisible(party, membership);
    const [json] = await this.#toJson(db, userId, [party]);
    if (!json) throw AppError.notFound('Party not found.');
    return json;
  }

  create(userId: string, form: PartyForm): Promise<Party> {
    return this.#db.transaction(async (tx) => {
      await this.#entitlements.requireLimit(tx, userId, 'parties_created');
      const joinCode = form.join_permission === 'restricted' ? null : await this.#freshJoinCode(tx);
      const party = await repo.insertParty(tx, {
        name: form.name,
        description: form.description,
        gameSystem: form.game_system,
        setting: form.setting,
        joinPermission: form.join_permission,
        encumbranceStyle: form.encumbrance_style,
        itemConjuring: form.item_conjuring,
        isPublic: form.is_public,
        joinCode,
        gameMasterId: userId,
      });
      await repo.insertMembership(tx, { partyId: party.id, userId, role: 'gm' });
      await this.#createStash(tx, party, userId);
      return this.#read(tx, userId, party.id);
    });
  }

  /** Issue 12: a new party starts with a stash for what the group shares (loot overflows into it too). */
  async #createStash(tx: Executor, party: PartyRow, userId: string): Promise<void> {
    const stash = await inventoryRepository.insertContainer(tx, {
      name: PARTY_STASH_NAME,
      partyId: party.id,
    });
    const actorName = (await accountsRepository.findUserById(tx, userId))?.username ?? 'The Game Master';
    await ledgerRepository.record(tx, {
      transactionType: 'container_creation',
      partyId: party.id,
      characterId: null,
      actorId: userId,
      actorName,
      targetName: party.name,
      targetId: party.id,
      destinationContainerId: stash.id,
      destinationName: `${stash.name} (${party.name})`,
      // Made with the party, not by an action of the GM's: like a new character's backpack, it counts
      // toward no monthly allowance (a new GM's usage would read 1 of 200 before they did anything).
      scope: null,
      summary: `${actorName} created ${stash.name} for ${party.name}`,
    });
  }

  async update(userId: string, partyId: string, changes: PartyUpdate): Promise<Party> {
    const told: string[] = [];
    const { handedOver, answer } = await this.#db.transaction(async (tx) => {
      // Only a change of who may join changes the join code, a key (its unique index): the rest, hand-over
      // and archiving included, changes the party as a change holds it (see #gmContext).
      const { party } = await this.#gmContext(tx, partyId, userId, {
        lock: changes.join_permission === undefined ? 'no key update' : true,
      });
      const onlyArchiveFlag = Object.keys(changes).every((k) => k === 'is_archived');
      if (party.isArchived && !onlyArchiveFlag && changes.is_archived !== false)
        policy.assertNotArchived(party);
      const successor = await this.#handOverTarget(tx, party, userId, changes.game_master_id);
      const permission = changes.join_permission ?? party.joinPermission;
      // Restricted parties have no code; opening one up gives it a code.
      const joinCode =
        permission === 'restricted' ? null : (party.joinCode ?? (await this.#freshJoinCode(tx)));
      const updated = await repo.updateParty(tx, party.id, {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.game_system !== undefined ? { gameSystem: changes.game_system } : {}),
        ...(changes.setting !== undefined ? { setting: changes.setting } : {}),
        ...(changes.join_permission !== undefined ? { joinPermission: changes.join_permission } : {}),
        ...(changes.encumbrance_style !== undefined ? { encumbranceStyle: changes.encumbrance_style } : {}),
        ...(changes.item_conjuring !== undefined ? { itemConjuring: changes.item_conjuring } : {}),
        ...(changes.is_public !== undefined ? { isPublic: changes.is_public } : {}),
        ...(changes.is_archived !== undefined ? { isArchived: changes.is_archived } : {}),
        joinCode,
      });
      if (changes.is_archived !== undefined && changes.is_archived !== party.isArchived)
        told.push(
          ...(await this.#noticeToMembers(
            tx,
            updated,
            await this.#ledgerActor(tx, userId),
            changes.is_archived ? 'party_archived' : 'party_unarchived',
          )),
        );
      const handedOver = successor
        ? await this.#handOver(tx, party.id, updated.name, successor, userId, told)
        : null;
      return { handedOver, answer: await this.#read(tx, userId, partyId) };
    });
    this.#notices.announce(told);
    const keys = Object.keys(changes);
    if (keys.length === 0 || keys.some((k) => k !== 'game_master_id'))
      await this.#announce(partyId, userId, 'party_updated', (name) => `${name} updated the party`);
    if (handedOver) {
      // As the admin's account deletion announces a new GM: the receiver's live subscriptions gain the
      // GM's view (hidden loot), and every member's party, members and characters refresh.
      await this.#announce(
        partyId,
        userId,
        'member_role_changed',
        (name) => `${name} handed ${handedOver.partyName} to ${handedOver.username}`,
        {
          userId: handedOver.userId,
          ids: (name) => ({
            role: 'gm',
            recipient_user_id: handedOver.userId,
            recipient_notice: roleNotices.handedOver(name, handedOver.partyName),
          }),
        },
      );
    }
    return answer;
  }

  /**
   * The member a PATCH's `game_master_id` hands the party to, locked, or null when it changes nothing (not
   * sent, or the current owner: handing the party to oneself is a no-op). Only the owner may hand it over;
   * other GM members are GMs of someone else's party. The caller holds the party's row lock, so of two
   * hand-overs at once the second sees the first's owner and is refused.
   */
  /** The party goes to `successor`, who is told; what the announcement after the commit names. */
  async #handOver(
    tx: Executor,
    partyId: string,
    partyName: string,
    successor: HandOverTarget,
    userId: string,
    told: string[],
  ) {
    await this.#assertReceiverMayRun(tx, successor);
    await repo.handOver(tx, partyId, { membershipId: successor.membership.id, userId: successor.userId });
    const actor = await this.#ledgerActor(tx, userId);
    told.push(
      ...(await this.#notices.write(tx, [
        {
          userId: successor.userId,
          actorId: userId,
          kind: 'party_handed_over',
          partyId,
          partyName,
          message: roleNotices.handedOver(actor.username, partyName),
          link: noticeLinks.party(partyId, partyName),
        },
      ])),
    );
    return { userId: successor.userId, username: successor.username, partyName };
  }

  async #handOverTarget(tx: Executor, party: PartyRow, userId: string, targetUserId: string | undefined) {
    if (targetUserId === undefined || targetUserId === party.gameMasterId) return null;
    if (party.gameMasterId !== userId) throw new AppError('FORBIDDEN', partyMessages.handOverOwnerOnly);
    const target = await repo.lockHandOverTarget(tx, party.id, targetUserId);
    if (!target)
      throw AppError.validation([{ field: 'party.game_master_id', message: partyMessages.handOverTarget }]);
    return { ...target, userId: targetUserId };
  }

  /**
   * The receiver's own plan must have room for one more party they run (parties_can_create counts the
   * parties a user runs): otherwise two Free accounts could hand parties back and forth to run any number.
   * The admin's deletion of an owner's account hands parties over without this check: it cannot wait.
   */
  async #assertReceiverMayRun(tx: Executor, successor: { userId: string; username: string }) {
    const room = await this.#entitlements.roomFor(tx, successor.userId, 'parties_created');
    if (room.fits || room.limit === null) return;
    const message = partyMessages.handOverReceiverFull(successor.username, room.tierName, room.limit);
    throw AppError.validation([{ field: 'party.game_master_id', message }]);
  }

  async setArchived(userId: string, partyId: string, archived: boolean): Promise<Party> {
    return this.update(userId, partyId, { is_archived: archived });
  }

  async delete(actor: { id: string; username: string }, partyId: string): Promise<void> {
    const done = await this.#db.transaction(async (tx) => {
      // The party first, as a change holds it: a departure, a role change or a hand-over takes turns with
      // the deletion there, before either holds containers. Then what it destroys, in the order trades and
      // takes lock it, with its characters' containers: a gift or a hand-out into one of them tells its
      // player, naming the party (its foreign key's check takes a key share lock on the party's row), so
      // each such move is either done before the deletion or starts after it and finds the party gone.
      // `for update` is taken only by the DELETE itself, once no move into the party can be under way:
      // held from the start, a gift holding its containers and its receiver's inbox would wait for it while
      // the deletion waited for that inbox or those containers (a deadlock on PostgreSQL).
      const { party } = await this.#gmContext(tx, partyId, actor.id, { lock: 'no key update' });
      if (party.gameMasterId !== actor.id)
        throw new AppError('FORBIDDEN', 'Only the party’s creator can delete it.');
      await lockPartyHoldings(tx, [partyId], await repo.characterContainerIds(tx, partyId));
      const told = await this.#noticeToMembers(tx, party, actor, 'party_deleted');
      // Pending invitations go with the party: their invitees' pages drop them once it is gone.
      const invitees = (await repo.invitations(tx, { partyId, pendingOnly: true })).map(
        (row) => row.invitation.invitedUserId,
      );
      await destroyParty(tx, party, actor);
      return { told, invitees };
    });
    this.#notices.announce(done.told);
    for (const invitee of new Set(done.invitees)) this.#events.invitationsChanged(invitee);
  }

  async members(userId: string, partyId: string): Promise<PartyMember[]> {
    const party = await repo.findParty(this.#db, partyId);
    const membership = party ? await repo.membership(this.#db, partyId, userId) : undefined;
    policy.assertMember(party, membership);
    const rows = await repo.members(this.#db, partyId);
    return this.#membersJson(userId, partyId, membership.role === 'gm', rows);
  }

  /**
   * A party's members as the caller may see them. Addresses are for the GM (to reach players) and for each
   * member's own row. The GM is also told who can use the party stash (before a session, the Members tab),
   * not which plan anyone has: that plan is the member's account and billing information.
   */
  async #membersJson(
    userId: string,
    partyId: string,
    callerIsGm: boolean,
    rows: Awaited<ReturnType<typeof repo.members>>,
  ): Promise<PartyMember[]> {
    // Every member's plan in the party at once, not one lookup per member (a fixed number of statements).
    const collaborating = callerIsGm
      ? await this.#entitlements.featureAllowedForMembers(
          this.#db,
          rows.map((row) => row.membership.userId),
          'party_collaboration',
          partyId,
        )
      : new Map<string, boolean>();
    return rows.map((row) =>
      toMemberJson(
        row,
        callerIsGm || row.membership.userId === userId,
        collaborating.get(row.membership.userId) ?? null,
      ),
    );
  }

  async changeRole(userId: string, partyId: string, targetUserId: string, role: Exclude<PartyRole, 'gm'>) {
    const told: string[] = [];
    const changed = await this.#db.transaction(async (tx) => {
      const { party } = await this.#gmContext(tx, partyId, userId, { lock: 'no key update' });
      const target = await repo.membership(tx, partyId, targetUserId, { lock: true });
      if (!target) throw AppError.notFound(partyMessages.notMember);
      policy.assertNotPartyGm(party, target, 'rerole');
      const updated = await repo.updateRole(tx, target.id, role);
      if (target.role !== role) {
        const actor = await this.#ledgerActor(tx, userId);
        told.push(
          ...(await this.#notices.write(tx, [
            {
              userId: targetUserId,
              actorId: userId,
              kind: 'role_changed',
              partyId,
              partyName: party.name,
              message: roleNotices.roleChanged(actor.username, role, party.name),
              link: noticeLinks.party(partyId, party.name),
            },
          ])),
        );
      }
      return {
        member: { id: updated.id, user_id: updated.userId, role: updated.role },
        partyName: party.name,
      };
    });
    this.#notices.announce(told);
    await this.#announce(partyId, userId, 'member_role_changed', (name) => `${name} made a member ${role}`, {
      userId: targetUserId,
      ids: (name) => ({
        role,
        recipient_user_id: targetUserId,
        recipient_notice: roleNotices.roleChanged(name, role, changed.partyName),
      }),
    });
    return changed.member;
  }

  async removeMember(userId: string, partyId: string, targetUserId: string): Promise<void> {
    await this.#removable(this.#db, userId, partyId, targetUserId);
    await this.#memberLeaving(partyId, targetUserId, userId);
    const told: string[] = [];
    const ended = await this.#db.transaction(async (tx) => {
      const target = await this.#removable(tx, userId, partyId, targetUserId, { lock: true });
      const actor = await this.#ledgerActor(tx, userId);
      const party = await repo.findParty(tx, partyId);
      const partyName = party?.name ?? 'the party';
      // The notice after the member's containers are locked (in #dropMember), as a move writes its own: a
      // gift to their character, holding its container, tells them too, and would wait for their inbox.
      return this.#dropMember(tx, partyId, target, actor, told, async () => {
        told.push(
          ...(await this.#notices.write(tx, [
            {
              userId: targetUserId,
              actorId: userId,
              kind: 'member_removed',
              partyId,
              partyName,
              message: partyNotices.removed(actor.username, partyName),
              // No link: the party is no longer theirs to open.
              link: null,
            },
          ])),
        );
      });
    });
    this.#notices.announce(told);
    await this.#announce(partyId, userId, 'member_removed', (name) => `${name} removed a member`, {
      userId: targetUserId,
    });
    this.#events.publish(ended);
  }

  async #removable(
    db: Executor,
    userId: string,
    partyId: string,
    targetUserId: string,
    lock: { lock?: boolean } = {},
  ): Promise<MembershipRow> {
    // The party held as a change holds it (no key update), not `for update`: a move telling the member
    // what it brought their character writes a notice naming the party, whose foreign key's check would
    // wait for this lock while the move holds the containers the removal waits for (a deadlock on
    // PostgreSQL). A deletion or a hand-over of the party still waits for the removal, and it for them.
    const { party } = await this.#gmContext(db, partyId, userId, {
      lock: lock.lock ? 'no key update' : false,
    });
    const target = await repo.membership(db, partyId, targetUserId, lock);
    if (!target) throw AppError.notFound(partyMessages.notMember);
    policy.assertNotPartyGm(party, target, 'remove');
    return target;
  }

  async #leavable(db: Executor, userId: string, partyId: string, lock: { lock?: boolean } = {}) {
    // Held as a change holds it: see #removable.
    const party = await repo.findParty(db, partyId, { lock: lock.lock ? 'no key update' : false });
    const membership = party ? await repo.membership(db, partyId, userId, lock) : undefined;
    policy.assertMember(party, membership);
    if (party?.gameMasterId === userId) throw new AppError('FORBIDDEN', partyMessages.gmCannotLeave);
    return membership;
  }

  async leave(userId: string, partyId: string): Promise<void> {
    await this.#leavable(this.#db, userId, partyId);
    await this.#memberLeaving(partyId, userId, null);
    const told: string[] = [];
    const ended = await this.#db.transaction(async (tx) => {
      const membership = await this.#leavable(tx, userId, partyId, { lock: true });
      return this.#dropMember(tx, partyId, membership, await this.#ledgerActor(tx, userId), told);
    });
    this.#notices.announce(told);
    await this.#announce(partyId, userId, 'member_removed', (name) => `${name} left the party`, { userId });
    this.#events.publish(ended);
  }

  async preview(userId: string, query: { join_code?: string; id?: string }): Promise<PartyPreview> {
    let party: PartyRow | undefined;
    if (query.join_code) {
      party = isWellFormedJoinCode(query.join_code)
        ? await repo.findPartyByCode(this.#db, query.join_code)
        : undefined;
      if (!party || party.isArchived) throw AppError.notFound(partyMessages.joinCodeInvalid);
    } else if (query.id) {
      party = await repo.findParty(this.#db, query.id);
      const membership = party ? await repo.membership(this.#db, party.id, userId) : undefined;
      policy.assertVisible(party, membership);
    } else {
      throw AppError.validation([{ field: 'join_code', message: partyMessages.joinCodeTooShort }]);
    }
    const counts = await repo.counts(this.#db, [party.id]);
    const membership = await repo.membership(this.#db, party.id, userId);
    return toPreviewJson(party, counts.get(party.id), Boolean(membership));
  }

  async join(userId: string, input: { join_code: string; role_request: PartyRole }): Promise<Party> {
    const party = await this.#db.transaction(async (tx) => {
      const found = isWellFormedJoinCode(input.join_code)
        ? await repo.findPartyByCode(tx, input.join_code)
        : undefined;
      if (!found || found.isArchived) throw AppError.notFound(partyMessages.joinCodeInvalid);
      // Taking turns with archiving and the join code's changes is enough: a new membership changes no key.
      const party = await repo.findParty(tx, found.id, { lock: 'no key update' });
      if (!party) throw AppError.notFound(partyMessages.joinCodeInvalid);
      policy.assertJoinRole(party.joinPermission, input.role_request);
      if (await repo.membership(tx, party.id, userId))
        throw new AppError('CONFLICT', partyMessages.alreadyMember);
      await this.#entitlements.requireLimit(tx, userId, 'parties_joined');
      await repo.insertMembership(tx, { partyId: party.id, userId, role: input.role_request });
      return this.#read(tx, userId, party.id);
    });
    await this.#announce(party.id, userId, 'member_added', (name) => `${name} joined the party`, { userId });
    return party;
  }

  async regenerateJoinCode(userId: string, partyId: string): Promise<Party> {
    const answer = await this.#db.transaction(async (tx) => {
      // `for update`: the join code is a key (its unique index), which the UPDATE changes.
      const { party } = await this.#gmContext(tx, partyId, userId, { lock: true });
      policy.assertNotArchived(party);
      if (party.joinPermission === 'restricted') throw new AppError('BAD_REQUEST', partyMessages.restricted);
      await repo.updateParty(tx, party.id, { joinCode: await this.#freshJoinCode(tx) });
      return this.#read(tx, userId, partyId);
    });
    await this.#announce(partyId, userId, 'party_updated', (name) => `${name} made a new join code`);
    return answer;
  }

  async invite(
    userId: string,
    partyId: string,
    input: {
      username?: string | undefined;
      email?: string | undefined;
      role: 'manager' | 'player' | 'observer';
      message: string;
    },
  ): Promise<PartyInvitation> {
    const { id, invitedUserId } = await this.#db
      .transaction(async (tx) => {
        const { party } = await this.#gmContext(tx, partyId, userId, { lock: 'no key update' });
        policy.assertNotArchived(party);
        const invitee = await repo.findUserByUsernameOrEmail(tx, {
          ...(input.username ? { username: input.username } : {}),
          ...(input.email ? { email: input.email } : {}),
        });
        const field = input.username ? 'username' : 'email';
        if (!invitee) throw AppError.validation([{ field, message: partyMessages.inviteeNotFound }]);
        if (await repo.membership(tx, partyId, invitee.id)) {
          throw AppError.validation([{ field, message: partyMessages.inviteeMember }]);
        }
        if (await repo.pendingInvitation(tx, partyId, invitee.id))
          throw new AppError('CONFLICT', partyMessages.invitationExists);
        const invitation = await repo.insertInvitation(tx, {
          partyId,
          invitedUserId: invitee.id,
          invitedById: userId,
          role: input.role,
          message: input.message,
        });
        return { id: invitation.id, invitedUserId: invitee.id };
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw new AppError('CONFLICT', partyMessages.invitationExists);
        throw error;
      });
    this.#events.invitationsChanged(invitedUserId);
    return this.#invitationJson(id);
  }

  async partyInvitations(userId: string, partyId: string): Promise<PartyInvitation[]> {
    const party = await repo.findParty(this.#db, partyId);
    const membership = party ? await repo.membership(this.#db, partyId, userId) : undefined;
    policy.assertMember(party, membership);
    policy.assertGm(membership);
    return (await repo.invitations(this.#db, { partyId, pendingOnly: true })).map(toInvitationJson);
  }

  async revokeInvitation(userId: string, partyId: string, invitationId: string): Promise<void> {
    const invitedUserId = await this.#db.transaction(async (tx) => {
      await this.#gmContext(tx, partyId, userId, { lock: 'no key update' });
      const invitation = await repo.findInvitation(tx, invitationId, { lock: true });
      if (!invitation || invitation.partyId !== partyId) throw AppError.notFound('Invitation not found.');
      if (invitation.status !== 'pending') throw new AppError('CONFLICT', partyMessages.invitationGone);
      await repo.setInvitationStatus(tx, invitation.id, 'revoked');
      return invitation.invitedUserId;
    });
    this.#events.invitationsChanged(invitedUserId);
  }

  async myInvitations(userId: string): Promise<PartyInvitation[]> {
    return (await repo.invitations(this.#db, { invitedUserId: userId, pendingOnly: true })).map(
      toInvitationJson,
    );
  }

  /** Accepting is the only way into a restricted party; it counts against parties_can_join. */
  async acceptInvitation(userId: string, invitationId: string): Promise<Party> {
    const party = await this.#respondToInvitation(userId, invitationId, true);
    if (!party) throw AppError.notFound('Party not found.');
    await this.#announce(party.id, userId, 'member_added', (name) => `${name} joined the party`, { userId });
    return party;
  }

  async declineInvitation(userId: string, invitationId: string): Promise<void> {
    await this.#respondToInvitation(userId, invitationId, false);
  }

  async #respondToInvitation(userId: string, invitationId: string, accept: boolean): Promise<Party | null> {
    const partyId = await this.#db.transaction(async (tx) => {
      const invitation = await repo.findInvitation(tx, invitationId, { lock: true });
      if (!invitation || invitation.invitedUserId !== userId)
        throw AppError.notFound('Invitation not found.');
      if (invitation.status !== 'pending') throw new AppError('CONFLICT', partyMessages.invitationGone);
      if (!accept) {
        await repo.setInvitationStatus(tx, invitation.id, 'declined');
        return null;
      }
      // As joining by code: a new membership changes no key of the party.
      const party = await repo.findParty(tx, invitation.partyId, { lock: 'no key update' });
      if (!party || party.isArchived) throw new AppError('CONFLICT', partyMessages.invitationGone);
      if (await repo.membership(tx, party.id, userId))
        throw new AppError('CONFLICT', partyMessages.alreadyMember);
      await this.#entitlements.requireLimit(tx, userId, 'parties_joined');
      await repo.insertMembership(tx, { partyId: party.id, userId, role: invitation.role });
      await repo.setInvitationStatus(tx, invitation.id, 'accepted');
      return party.id;
    });
    // The invitee's other pages (another device) drop the answered invitation from their list.
    this.#events.invitationsChanged(userId);
    return partyId ? this.get(userId, partyId) : null;
  }

  /** For other modules: the caller's membership of a party, or undefined. */
  membership(db: Executor, partyId: string, userId: string) {
    return repo.membership(db, partyId, userId);
  }

  /**
   * spec/02 §7 PartyChannel: told after the commit, with the actor's name and a one-line summary. Changes
   * to who is a member go to the inventory channel too, whose subscribers must also lose access at once.
   */
  async #announce(
    partyId: string,
    actorId: string,
    action: string,
    summary: (actor: string) => string,
    extra: {
      userId?: string;
      ids?: Record<string, string | null> | ((actor: string) => Record<string, string | null>);
    } = {},
  ) {
    const actor = await accountsRepository.findUserById(this.#db, actorId);
    const name = actor?.username ?? 'Someone';
    const ids = typeof extra.ids === 'function' ? extra.ids(name) : extra.ids;
    const event = {
      partyId,
      action,
      actor: { id: actorId, name },
      summary: summary(name),
      ...(extra.userId ? { userId: extra.userId } : {}),
      ...(ids ? { ids } : {}),
    };
    const membershipChange = action === 'member_removed' || action === 'member_role_changed';
    this.#events.publish([
      { ...event, channel: 'PartyChannel' },
      ...(membershipChange ? [{ ...event, channel: 'PartyInventoryChannel' as const }] : []),
    ]);
  }

  /**
   * Answers the events of what the leaving ended elsewhere, to publish once the transaction committed. The
   * member's characters leave with them, and the party's ledger says with what (`actor`: who left, or the
   * GM or manager who removed them).
   */
  async #dropMember(
    tx: Executor,
    partyId: string,
    member: MembershipRow,
    actor: LedgerActor,
    told: string[] = [],
    /** What the caller writes once the member's containers are locked (their notice). */
    locked?: () => Promise<void>,
  ): Promise<DomainEvent[]> {
    const leaving = await repo.lockCharactersOf(tx, partyId, member.userId);
    // All their containers at once, in id order, as a move between two of them locks them.
    const owned = await inventoryRepository.listForCharacters(
      tx,
      leaving.map((character) => character.id),
    );
    await inventoryRepository.lockContainers(
      tx,
      owned.map((container) => container.id),
    );
    await locked?.();
    const activity: LedgerEntry[] = [];
    for (const character of leaving)
      activity.push(...(await recordPartyChange(tx, character, partyId, 'left_party', actor)));
    await repo.unassignCharacters(tx, partyId, member.userId);
    await repo.deleteMembership(tx, member.id);
    const events: DomainEvent[] = partyActivityEvents(activity);
    for (const hook of this.#memberLeftHooks)
      events.push(...(await hook(tx, partyId, member.userId, actor.id, told)));
    return events;
  }

  async #ledgerActor(tx: Executor, userId: string): Promise<LedgerActor> {
    const user = await accountsRepository.findUserById(tx, userId);
    return { id: userId, username: user?.username ?? 'Someone' };
  }

  /**
   * The party, with the caller a GM of it. Each caller says how it holds the party's row: `'no key update'`
   * takes turns with the party's other changes without making wait the rows that merely name it (a
   * notice, a membership: their foreign key's check takes a key share lock, which it allows); `true`
   * (`for update`) only for a change of a key (the join code, with its unique index), as that waits for
   * them anyway; a deletion's DELETE takes `for update` itself.
   */
  async #gmContext(
    tx: Executor,
    partyId: string,
    userId: string,
    options: { lock: boolean | 'no key update' },
  ) {
    const party = await repo.findParty(tx, partyId, options);
    const membership = party ? await repo.membership(tx, partyId, userId) : undefined;
    policy.assertVisible(party, membership);
    policy.assertMember(party, membership);
    policy.assertGm(membership);
    return { party, membership };
  }

  async #freshJoinCode(tx: Executor): Promise<string> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const code = generateJoinCode();
      if (!(await repo.joinCodeTaken(tx, code))) return code;
    }
    throw new Error('could not find a free join code in 10 tries');
  }

  async #invitationJson(id: string): Promise<PartyInvitation> {
    const [row] = await repo.invitations(this.#db, { id });
    if (!row) throw AppError.notFound('Invitation not found.');
    return toInvitationJson(row);
  }

  async #toJson(db: Executor, userId: string, rows: PartyRow[]): Promise<Party[]> {
    const ids = rows.map((r) => r.id);
    const [counts, memberships] = await Promise.all([
      repo.counts(db, ids),
      repo.memberships(db, userId, ids),
    ]);
    return rows.map((party) => {
      const membership = memberships.get(party.id);
      return toPartyJson(party, counts.get(party.id), membership, policy.canSeeJoinCode(party, membership));
    });
  }
}
