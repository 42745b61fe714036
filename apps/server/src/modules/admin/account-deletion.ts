import { type AdminDeletedUser, accountClosureMessages } from '@haversack/contracts';
import type { Database, Executor } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { EventBus } from '../../realtime/event-bus.js';
import type { DomainEvent } from '../../realtime/events.js';
import { accountsRepository } from '../accounts/accounts.repository.js';
import type { SessionEndListener } from '../accounts/accounts.service.js';
import { destroyCharacter } from '../characters/character-destruction.js';
import type { LedgerEntry } from '../ledger/ledger.repository.js';
import { partyActivityEvents } from '../ledger/ledger-events.js';
import { type NoticeBoard, noNoticeBoard, noticeLinks } from '../notifications/notices.js';
import { partiesRepository } from '../parties/parties.repository.js';
import { type MemberLeftHook, roleNotices } from '../parties/parties.service.js';
import { destroyParty, lockPartyHoldings } from '../parties/party-destruction.js';
import { adminUserDeletionRepository as deletion } from './admin-user-deletion.repository.js';
import { adminUserListRepository, type UserRow } from './admin-users.repository.js';
import type { AuditEntry, AuditLog } from './audit-log.js';

export interface AccountDeletionDeps {
  db: Database;
  audit: AuditLog;
  /** Cancels a plan a card provider bills, at once; answers what it cancelled (for the audit) or null. */
  subscriptions: { cancelAtProviderNow(userId: string): Promise<Record<string, unknown> | null> };
  sessions: SessionEndListener;
  /** Tells the parties a deleted account leaves behind who runs them now. */
  events: Pick<EventBus, 'publish'>;
  /** What the account settles while it still may, before it goes (its purchase requests); filled late. */
  accountLeaving?: AccountLeavingHook[];
  /** Where the member a party passes to finds it said, when they come back (absent: nothing kept). */
  notices?: NoticeBoard;
  /**
   * What leaving a party ends elsewhere (its sponsorships), as when a member leaves (parties.service.ts):
   * run in the deletion's transaction for each party the account leaves behind, the ones it joined and the
   * ones it handed over. Answers the events to publish once the deletion committed.
   */
  partyLeft?: MemberLeftHook[];
}

/** Run once the deletion is known to be allowed, before it, each in transactions of its own. */
export type AccountLeavingHook = (userId: string) => Promise<unknown>;

export interface AccountDeletionRequest {
  userId: string;
  /** Who deletes it: the ledger rows' actor (an admin, or the user themself). */
  actor: { id: string; username: string };
  /** The audit entry's actor and origin. */
  auditActor: Pick<AuditEntry, 'actorId' | 'actorEmail' | 'ip' | 'userAgent'>;
  /** Recorded in the audit entry: `admin` (the Users page) or `self_service` (the profile). */
  via: 'admin' | 'self_service';
  /**
   * The caller's refusals (an admin account, a wrong confirmation), thrown as AppErrors. Run before the
   * card provider is called and again on the locked row, so nothing changes when one of them refuses.
   */
  check(user: UserRow): void;
  /**
   * Whether a member's own plan has room to run one more party. Given (the user's own deletion), a party
   * goes to the first member in line who has room, and the deletion is refused when none has: else two
   * Free accounts could pass parties on by deleting throwaway accounts and run any number. The admin's
   * deletion hands over without it: it cannot wait for a member to upgrade.
   */
  successorMayRun?(tx: Executor, userId: string): Promise<boolean>;
}

const notFound = () => AppError.notFound('No such user.');

/**
 * Deletes an account for good, the one path of the admin's Users page and of the user's own profile
 * (docs/decisions.md "Deleting an account"). Nothing of another player's is lost: a party the user runs
 * goes to its longest-standing manager (else player, else observer) and is deleted, with its containers
 * in the ledger, only when the user was its one member. Their characters go through the ordinary character
 * deletion (destruction rows in the ledger); shared templates stay, ownerless; a plan billed by a card
 * provider is cancelled there at once; sessions end and sockets close at once; each sponsorship in a party
 * left behind ends as when its patron or beneficiary leaves that party (the other side is told); the
 * subscription and the rows of ended sponsorships go with the account (cascade). Ledger rows keep their
 * name snapshots (actor_id becomes null).
 */
export class AccountDeletion {
  readonly #deps: AccountDeletionDeps;

  constructor(deps: AccountDeletionDeps) {
    this.#deps = deps;
  }

  async delete(request: AccountDeletionRequest): Promise<AdminDeletedUser> {
    const { userId, actor } = request;
    const found = await accountsRepository.findUserById(this.#deps.db, userId);
    if (!found) throw notFound();
    request.check(found);
    // A refusal must come before the card provider is called, as the caller's checks do: the hand-overs
    // are rehearsed in a transaction that is then rolled back, each one counted before the next is chosen
    // (a member with room for one more party must not be chosen for two).
    const mayRun = request.successorMayRun;
    if (mayRun) {
      const rehearsed = new Error('hand-overs rehearsed');
      await this.#deps.db
        .transaction(async (tx) => {
          for (const party of await deletion.partiesRunBy(tx, userId)) {
            const successor = await this.#successor(tx, party, userId, mayRun);
            if (successor) await partiesRepository.handOver(tx, party.id, successor);
          }
          throw rehearsed;
        })
        .catch((error: unknown) => {
          if (error !== rehearsed) throw error;
        });
    }
    for (const hook of this.#deps.accountLeaving ?? []) await hook(userId);
    // Before the transaction, which cannot call out: if the provider refuses, the account stays. If the
    // transaction then fails, the plan is cancelled at the provider and its webhook downgrades it here.
    const cancelledAtProvider = await this.#deps.subscriptions.cancelAtProviderNow(userId);

    const notices = this.#deps.notices ?? noNoticeBoard;
    const told: string[] = [];
    const result = await this.#deps.db.transaction(async (tx) => {
      // What the deletion destroys is locked first, in the order moves, trades and takes lock it (party
      // deletion's lockPartyHoldings), and the user's row after: a move locks its containers and then
      // writes a ledger row naming its actor, which waits for the user's row. Taken the other way round, a
      // move of the user's between the party stash and their character and this deletion each waited for
      // the other, and PostgreSQL ended one of them. Every party they run is locked: which ones go with
      // the account is known only once their members are. Their rows before all that, as a change holds
      // them (no key update), as a party's own deletion, departures and role changes lock a party first.
      const run = await deletion.partyIdsRunBy(tx, userId);
      await partiesRepository.lockPartiesForChange(tx, run);
      await lockPartyHoldings(tx, run, await deletion.characterContainerIds(tx, userId));
      const user = await adminUserListRepository.lockUser(tx, userId);
      if (!user) throw notFound();
      request.check(user);
      const summary = await adminUserListRepository.summary(tx, userId);

      const joined = await deletion.partiesJoinedBy(tx, userId);
      const owned = await deletion.charactersOf(tx, userId);
      // Each character's rows say why it went: a party's GM reads a departure, not a tidy-up.
      const gone =
        actor.id === userId ? 'their account was deleted' : `${user.username}’s account was deleted`;
      const activity: LedgerEntry[] = [];
      for (const character of owned) activity.push(...(await destroyCharacter(tx, character, actor, gone)));

      const handedOver: AdminDeletedUser['parties_handed_over'] = [];
      const deleted: AdminDeletedUser['parties_deleted'] = [];
      for (const party of await deletion.partiesRunBy(tx, userId)) {
        const successor = await this.#successor(tx, party, userId, request.successorMayRun);
        if (successor) {
          await partiesRepository.handOver(tx, party.id, successor);
          handedOver.push({ id: party.id, name: party.name, new_gm_id: successor.userId });
          told.push(
            ...(await notices.write(tx, [
              {
                userId: successor.userId,
                // Not the deleted account's id (its row goes in this transaction): nobody to fold under.
                actorId: null,
                kind: 'party_handed_over',
                partyId: party.id,
                partyName: party.name,
                message: roleNotices.ownerDeleted(party.name),
                link: noticeLinks.party(party.id, party.name),
              },
            ])),
          );
        } else {
          await destroyParty(tx, party, actor);
          deleted.push({ id: party.id, name: party.name });
        }
      }
      // The parties that stay lose a member, as when one leaves: their sponsorships there end, and the
      // other side of each is told (the notice here, the live event after the commit).
      const departures: DomainEvent[] = [];
      for (const party of [...joined, ...handedOver])
        for (const hook of this.#deps.partyLeft ?? [])
          departures.push(...(await hook(tx, party.id, userId, actor.id, told)));
      const templatesKept = await deletion.keepSharedTemplates(tx, userId);
      const sessionIds = await accountsRepository.revokeUserSessions(tx, userId, 'account_deleted');

      await this.#deps.audit.record(tx, {
        ...request.auditActor,
        action: 'user_deleted',
        targetType: 'user',
        targetId: userId,
        before: {
          email: user.email,
          username: user.username,
          tier: summary?.tier ?? null,
          created_at: user.createdAt.toISOString(),
          suspended_at: user.suspendedAt?.toISOString() ?? null,
          characters: owned.map((c) => ({ id: c.id, name: c.name, party_id: c.partyId })),
        },
        after: null,
        details: {
          via: request.via,
          parties_handed_over: handedOver,
          parties_deleted: deleted,
          templates_kept: templatesKept,
          sessions_ended: sessionIds.length,
          subscription_cancelled_at_provider: cancelledAtProvider,
        },
      });
      await deletion.deleteUser(tx, userId);
      return {
        sessionIds,
        joined,
        activity,
        departures,
        deleted: {
          id: userId,
          email: user.email,
          parties_handed_over: handedOver,
          parties_deleted: deleted,
          characters_deleted: owned.length,
          templates_kept: templatesKept,
        },
      };
    });
    notices.announce(told);
    // Their devices cannot ask afterwards why their session went (its rows go with the account): told now.
    if (result.sessionIds.length > 0)
      this.#deps.sessions.sessionsEnded(userId, result.sessionIds, 'account_deleted');
    // The new GM's open screens must gain the GM's view (hidden loot, say) at once, and every member's
    // list of members must change, as when a GM changes a member's role.
    // The parties they only belonged to lose a member and its characters, as when a member leaves.
    const eventActor = { id: actor.id, name: actor.username };
    const channels = ['PartyChannel', 'PartyInventoryChannel'] as const;
    this.#deps.events.publish([
      ...result.deleted.parties_handed_over.flatMap(({ id: partyId, name, new_gm_id }) =>
        channels.map((channel) => ({
          channel,
          partyId,
          action: 'member_role_changed',
          actor: eventActor,
          summary: `${name} has a new GM: its GM's account was deleted`,
          userId: new_gm_id,
          ids: {
            role: 'gm',
            recipient_user_id: new_gm_id,
            recipient_notice: roleNotices.ownerDeleted(name),
          },
        })),
      ),
      ...result.joined.flatMap(({ id: partyId }) =>
        channels.map((channel) => ({
          channel,
          partyId,
          action: 'member_removed',
          actor: eventActor,
          summary: `${found.username} is no longer a member: their account was deleted`,
          userId,
        })),
      ),
      // The Activity tabs gain the rows of the characters that went with the account.
      ...partyActivityEvents(result.activity),
      ...result.departures,
    ]);
    return result.deleted;
  }

  async #successor(
    tx: Executor,
    party: { id: string; name: string },
    departingUserId: string,
    mayRun: AccountDeletionRequest['successorMayRun'],
  ) {
    const candidates = await deletion.successors(tx, party.id, departingUserId);
    if (!mayRun) return candidates[0];
    for (const candidate of candidates) if (await mayRun(tx, candidate.userId)) return candidate;
    if (candidates.length === 0) return undefined;
    throw new AppError('CONFLICT', accountClosureMessages.noSuccessorRoom(party.name));
  }
}
