import {
  type EligibleMember,
  type Patronage,
  type TierIdentifier,
  tierIdentifiers,
} from '@haversack/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { withChangeSource } from '../../lib/change-source.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import type { EventBus } from '../../realtime/event-bus.js';
import type { DomainEvent } from '../../realtime/events.js';
import { accountsRepository } from '../accounts/accounts.repository.js';
import { type NoticeBoard, noNoticeBoard, noticeLinks } from '../notifications/notices.js';
import { featureAllowed, rankOf } from '../subscriptions/entitlement-rules.js';
import type { EntitlementService } from '../subscriptions/entitlements.service.js';
import { subscriptionsRepository } from '../subscriptions/subscriptions.repository.js';
import { assertNotArchived } from './parties.policy.js';
import { partiesRepository } from './parties.repository.js';
import { patronagesRepository as repo } from './patronages.repository.js';

/** What a grant needs of its patron's own plan. */
type PatronTier = { identifier: string; features: Record<string, unknown> };

const messages = {
  self: 'You cannot sponsor yourself.',
  notMembers: 'Both of you must be members of this party.',
  aboveOwn: 'You can only grant a plan up to your own.',
  free: 'Choose a paid plan to grant.',
  exists: 'This member is already sponsored in this party.',
  notYours: 'Only the patron or the sponsored member can end a patronage.',
  changesNothing: (member: string, plan: string) =>
    `${member} already has ${plan} or better: a sponsorship would change nothing.`,
} as const;

/** Whether a patron on `tier` may still grant `grantedIdentifier`. */
function holds(tier: PatronTier, grantedIdentifier: string): boolean {
  return (
    featureAllowed(tier.features, 'patronage_system') && rankOf(tier.identifier) >= rankOf(grantedIdentifier)
  );
}

function toPatronageJson(row: Awaited<ReturnType<typeof repo.listDetailed>>[number]): Patronage {
  return {
    id: row.patronage.id,
    party_id: row.patronage.partyId,
    party_name: row.partyName,
    active: row.patronage.active,
    granted_tier: row.tierIdentifier as TierIdentifier,
    patron_id: row.patronage.patronId,
    patron_name: row.patronName,
    beneficiary_id: row.patronage.beneficiaryId,
    beneficiary_name: row.beneficiaryName,
    created_at: row.patronage.createdAt.toISOString(),
  };
}

/** What the other side of a sponsorship is told when it starts or ends (the web shows it to them alone). */
export const patronageNotices = {
  started: (patron: string, party: string) => `${patron} now sponsors you in ${party}.`,
  ended: (patron: string, party: string) =>
    `${patron} no longer sponsors you in ${party}: your own plan applies there now.`,
  declined: (beneficiary: string, party: string) =>
    `${beneficiary} ended your sponsorship of them in ${party}.`,
  patronLeft: (patron: string, party: string) =>
    `${patron} left ${party}, and no longer sponsors you there: your own plan applies there now.`,
  beneficiaryLeft: (beneficiary: string, party: string) =>
    `${beneficiary} left ${party}: your sponsorship of them there has ended.`,
  patronPlanDropped: (patron: string, party: string) =>
    `${patron}’s plan no longer covers your sponsorship in ${party}: your own plan applies there now.`,
  /** To the patron: the sponsorships their own plan (changed, or run out) no longer covers. */
  patronPlanEnded: (ended: readonly { beneficiary: string; partyName: string }[]) => {
    const each = ended.map((e) => `${e.beneficiary} in ${e.partyName}`);
    if (each.length === 1) return `Your plan no longer covers your sponsorship of ${each[0]}: it has ended.`;
    const list = `${each.slice(0, -1).join(', ')} and ${each.at(-1)}`;
    return `Your plan no longer covers your sponsorships of ${list}: they have ended.`;
  },
};

/** A grant the patron's plan no longer covered, as #endIfLapsed ended it. */
interface LapsedEnd {
  partyId: string;
  partyName: string;
  beneficiary: string;
  /** Whether that ending told the patron itself (no plan-change pass was there to list it). */
  patronTold: boolean;
}

/**
 * spec/02 §7 PartyChannel `party_update`: what the party gives a member changed without the party itself
 * being edited (that is `party_updated`). Told after the commit; the party page refreshes the party and
 * the patronage panel, and the other side of the grant is told in words (`recipient_notice`).
 */
function sponsorshipEvent(
  patronage: { partyId: string; patronId: string; beneficiaryId: string },
  actor: { id: string; name: string },
  started: boolean,
  recipient: { userId: string; notice: string },
): DomainEvent {
  return {
    channel: 'PartyChannel',
    partyId: patronage.partyId,
    action: 'party_update',
    actor,
    summary: `${actor.name} ${started ? 'started' : 'ended'} a sponsorship`,
    ids: {
      patron_id: patronage.patronId,
      beneficiary_id: patronage.beneficiaryId,
      recipient_user_id: recipient.userId,
      recipient_notice: recipient.notice,
    },
  };
}

/**
 * spec/01 §3, §7 Patronage: a user whose plan has patronage_system grants one of their tiers (not above
 * their own) to a member of a party they belong to. It counts inside that party only, and ends when
 * either leaves the party or the patron's plan drops below the grant.
 */
export class PatronagesService {
  #notices: NoticeBoard = noNoticeBoard;

  constructor(
    private readonly db: Database,
    private readonly entitlements: EntitlementService,
    private readonly events: EventBus,
    private readonly log?: FastifyBaseLogger,
  ) {
    entitlements.setPatronageSource(
      (db, userId, partyId) => this.grantedTier(db, userId, partyId),
      (db, userIds, partyId) => this.grantedTiers(db, userIds, partyId),
      repo.activeProbe,
    );
  }

  /** Where the other side of a sponsorship that starts or ends finds it told, when away (app.ts). */
  setNoticeBoard(board: NoticeBoard): void {
    this.#notices = board;
  }

  /** The notice of a sponsorship started or ended, in `tx`, for `userId` (the side that did not act). */
  #notice(
    tx: Executor,
    notice: { userId: string; actorId: string | null; started: boolean; partyId: string; partyName: string },
    message: string,
  ) {
    return this.#notices.write(tx, [
      {
        userId: notice.userId,
        actorId: notice.actorId,
        kind: notice.started ? 'sponsorship_started' : 'sponsorship_ended',
        partyId: notice.partyId,
        partyName: notice.partyName,
        message,
        link: noticeLinks.party(notice.partyId, notice.partyName),
      },
    ]);
  }

  async grantedTier(db: Executor, userId: string, partyId: string): Promise<string | undefined> {
    const active = await repo.activeFor(db, partyId, userId);
    if (!active) return undefined;
    return (await this.#stillHeld(db, active)) ? active.tierIdentifier : undefined;
  }

  /**
   * `grantedTier` for several members of the party (the GM's member list) in a fixed number of statements:
   * their grants at once, then their patrons' own plans at once. A grant no longer held ends as it does there.
   */
  async grantedTiers(
    db: Executor,
    userIds: readonly string[],
    partyId: string,
  ): Promise<Map<string, string>> {
    const grants = await repo.activeForMany(db, partyId, userIds);
    if (grants.length === 0) return new Map();
    const patronTiers = await this.entitlements.ownTiers(
      db,
      grants.map((grant) => grant.patronage.patronId),
    );
    const granted = new Map<string, string>();
    for (const grant of grants) {
      const patronTier = patronTiers.get(grant.patronage.patronId);
      if (!patronTier) continue;
      if (await this.#stillHeld(db, grant, Promise.resolve(patronTier)))
        granted.set(grant.patronage.beneficiaryId, grant.tierIdentifier);
    }
    return granted;
  }

  /**
   * Whether the patron's own plan still reaches the grant and still includes patronage. A move from Hero to
   * Adventurer keeps the rank of an Adventurer grant but loses `patronage_system`: without the second check
   * the table kept its grants for Adventurer's price. A grant no longer held is ended, and its beneficiary
   * told, in a transaction of its own (#endLapsed): the reader's may still roll back (a refused action).
   */
  async #stillHeld(
    db: Executor,
    grant: { patronage: { id: string; patronId: string }; tierIdentifier: string },
    patronTier: Promise<PatronTier> = this.entitlements.ownTier(db, grant.patronage.patronId),
  ): Promise<boolean> {
    if (holds(await patronTier, grant.tierIdentifier)) return true;
    this.#endLapsed(grant.patronage.id, grant.tierIdentifier, { tellPatron: true });
    return false;
  }

  readonly #ending = new Map<string, Promise<LapsedEnd | undefined>>();

  /**
   * The patron's plan lapsed or dropped below the grant; nothing tells us when (a period runs out, a
   * provider's event, staff), so it is found as read. Readers do not wait for it: one may hold a
   * transaction that this one must not wait inside (PGlite has one connection).
   */
  #endLapsed(id: string, tierIdentifier: string, options: { tellPatron: boolean }) {
    const running = this.#ending.get(id);
    if (running) return running;
    const ending = withChangeSource('system', () => this.#endIfLapsed(id, tierIdentifier, options))
      .catch((error: unknown) => {
        this.log?.warn({ err: error, patronage: id }, 'ending a lapsed sponsorship failed');
        return undefined;
      })
      .finally(() => this.#ending.delete(id));
    this.#ending.set(id, ending);
    return ending;
  }

  /**
   * `tellPatron`: a grant found lapsed as it was read tells its patron here; a plan-change pass
   * (patronPlanChanged) tells them once, listing every grant it ended.
   */
  async #endIfLapsed(
    id: string,
    tierIdentifier: string,
    { tellPatron }: { tellPatron: boolean },
  ): Promise<LapsedEnd | undefined> {
    const told: string[] = [];
    const ended = await this.db.transaction(async (tx) => {
      const row = await repo.find(tx, id, { lock: true });
      if (!row?.active) return undefined;
      if (holds(await this.entitlements.ownTier(tx, row.patronId), tierIdentifier)) return undefined;
      await repo.end(tx, id, 'patron_downgraded');
      const [patron, beneficiary, party] = await Promise.all([
        accountsRepository.findUserById(tx, row.patronId),
        accountsRepository.findUserById(tx, row.beneficiaryId),
        partiesRepository.findParty(tx, row.partyId),
      ]);
      const partyName = party?.name ?? 'the party';
      // The patron's plan changed (or ran out) elsewhere: theirs is the act the notice tells, as the live
      // event's actor says, and the same notice again folds under them as their "started" ones do.
      told.push(
        ...(await this.#notice(
          tx,
          {
            userId: row.beneficiaryId,
            actorId: row.patronId,
            started: false,
            partyId: row.partyId,
            partyName,
          },
          patronageNotices.patronPlanDropped(patron?.username ?? 'Your patron', partyName),
        )),
      );
      const end = {
        partyId: row.partyId,
        partyName,
        beneficiary: beneficiary?.username ?? 'a member',
        patronTold: tellPatron,
      };
      if (tellPatron) {
        told.push(
          ...(await this.#notice(
            tx,
            { userId: row.patronId, actorId: null, started: false, partyId: row.partyId, partyName },
            patronageNotices.patronPlanEnded([end]),
          )),
        );
      }
      return { row, end };
    });
    this.#notices.announce(told);
    if (!ended) return undefined;
    const { row } = ended;
    const [detailed] = (await repo.listDetailed(this.db, { patronId: row.patronId })).filter(
      (r) => r.patronage.id === id,
    );
    if (detailed) {
      this.#announce(row, { id: row.patronId, name: detailed.patronName }, false, {
        userId: row.beneficiaryId,
        notice: patronageNotices.patronPlanDropped(detailed.patronName, detailed.partyName),
      });
    }
    return ended.end;
  }

  /** Tells the patron, in one notice, the grants a change of their plan ended (those not told already). */
  async #tellPatron(patronId: string, ends: LapsedEnd[]): Promise<void> {
    const untold = ends
      .filter((end) => !end.patronTold)
      .sort((a, b) =>
        `${a.beneficiary} in ${a.partyName}`.localeCompare(`${b.beneficiary} in ${b.partyName}`),
      );
    const [first] = untold;
    if (!first) return;
    // One party: the notice leads there; several: it names them all and leads nowhere.
    const oneParty = untold.every((end) => end.partyId === first.partyId) ? first : undefined;
    const told = await this.db.transaction((tx) =>
      this.#notices.write(tx, [
        {
          userId: patronId,
          actorId: null,
          kind: 'sponsorship_ended',
          partyId: oneParty?.partyId ?? null,
          partyName: oneParty?.partyName ?? null,
          message: patronageNotices.patronPlanEnded(untold),
          link: oneParty ? noticeLinks.party(oneParty.partyId, oneParty.partyName) : null,
        },
      ]),
    );
    this.#notices.announce(told);
  }

  /**
   * After the patron's own plan changed: ends each grant it no longer covers, tells its beneficiary, and
   * tells the patron in one notice which ended.
   */
  async patronPlanChanged(patronId: string): Promise<void> {
    try {
      const rows = await repo.listDetailed(this.db, { patronId, activeOnly: true });
      if (rows.length === 0) return;
      const tier = await this.entitlements.ownTier(this.db, patronId);
      const ended = await Promise.all(
        rows
          .filter((row) => !holds(tier, row.tierIdentifier))
          .map((row) => this.#endLapsed(row.patronage.id, row.tierIdentifier, { tellPatron: false })),
      );
      await this.#tellPatron(
        patronId,
        ended.filter((end) => end !== undefined),
      );
    } catch (error) {
      // The plan change itself stands; the grants end at their next reading instead.
      this.log?.warn({ err: error, patronId }, 'checking sponsorships after a plan change failed');
    }
  }

  /**
   * The active grants of a listing, those whose patron's plan dropped below them ended on the way. Each
   * patron's plan is read once per listing: every grant of "granted" has the same patron.
   */
  async #listActive(db: Executor, filter: { patronId: string } | { beneficiaryId: string }) {
    const rows = await repo.listDetailed(db, { ...filter, activeOnly: true });
    const patronTiers = new Map<string, Promise<PatronTier>>();
    const patronTier = (patronId: string) => {
      let tier = patronTiers.get(patronId);
      if (!tier) {
        tier = this.entitlements.ownTier(db, patronId);
        patronTiers.set(patronId, tier);
      }
      return tier;
    };
    const held = await Promise.all(
      rows.map((row) => this.#stillHeld(db, row, patronTier(row.patronage.patronId))),
    );
    return rows.filter((_, i) => held[i]).map(toPatronageJson);
  }

  async create(patronId: string, input: { beneficiary_id: string; party_id: string; granted_tier?: string }) {
    const created = await this.db
      .transaction(async (tx) => {
        await this.entitlements.requireFeature(tx, patronId, 'patronage_system');
        if (input.beneficiary_id === patronId)
          throw AppError.validation([{ field: 'beneficiary_id', message: messages.self }]);
        // The party's row is locked first, as its own services do, so archiving cannot slip in between; as
        // a change holds it (no key update): the sponsorship and its notice name the party, no key changes.
        const party = await partiesRepository.findParty(tx, input.party_id, { lock: 'no key update' });
        const [mine, theirs] = await Promise.all([
          partiesRepository.membership(tx, input.party_id, patronId),
          partiesRepository.membership(tx, input.party_id, input.beneficiary_id),
        ]);
        if (!party || !mine) throw AppError.notFound('Party not found.');
        // A grant changes what a member may do in the party, which an archived one freezes. Ending one
        // (revoke) stays open: it takes a benefit away, as leaving the party does.
        assertNotArchived(party);
        if (!theirs) throw AppError.validation([{ field: 'beneficiary_id', message: messages.notMembers }]);
        const own = await this.entitlements.ownTier(tx, patronId);
        const identifier = input.granted_tier ?? own.identifier;
        if (!(tierIdentifiers as readonly string[]).includes(identifier) || identifier === 'tier_free') {
          throw AppError.validation([{ field: 'granted_tier', message: messages.free }]);
        }
        if (rankOf(identifier) > rankOf(own.identifier)) {
          throw AppError.validation([{ field: 'granted_tier', message: messages.aboveOwn }]);
        }
        const tier = await subscriptionsRepository.findTier(tx, identifier);
        if (!tier) throw AppError.validation([{ field: 'granted_tier', message: messages.free }]);
        // Inside a party the higher of the two plans applies: a grant at or below the member's own plan
        // changes nothing, and would only take their one sponsorship in this party.
        const theirOwn = await this.entitlements.ownTier(tx, input.beneficiary_id);
        if (rankOf(theirOwn.identifier) >= rankOf(identifier)) {
          const member = await accountsRepository.findUserById(tx, input.beneficiary_id);
          const message = messages.changesNothing(member?.username ?? 'This member', tier.name);
          throw AppError.validation([{ field: 'granted_tier', message }], message);
        }
        if (await repo.activeFor(tx, input.party_id, input.beneficiary_id))
          throw new AppError('CONFLICT', messages.exists);
        const row = await repo.insert(tx, {
          partyId: input.party_id,
          patronId,
          beneficiaryId: input.beneficiary_id,
          grantedTierId: tier.id,
        });
        const patron = await accountsRepository.findUserById(tx, patronId);
        const told = await this.#notice(
          tx,
          {
            userId: input.beneficiary_id,
            actorId: patronId,
            started: true,
            partyId: party.id,
            partyName: party.name,
          },
          patronageNotices.started(patron?.username ?? 'Someone', party.name),
        );
        return { id: row.id, told };
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw new AppError('CONFLICT', messages.exists);
        throw error;
      });
    this.#notices.announce(created.told);
    const id = created.id;
    const [row] = (await repo.listDetailed(this.db, { patronId })).filter((r) => r.patronage.id === id);
    if (!row) throw AppError.notFound('Patronage not found.');
    this.#announce(row.patronage, { id: patronId, name: row.patronName }, true, {
      userId: row.patronage.beneficiaryId,
      notice: patronageNotices.started(row.patronName, row.partyName),
    });
    return toPatronageJson(row);
  }

  async granted(userId: string): Promise<Patronage[]> {
    return this.#listActive(this.db, { patronId: userId });
  }

  async received(userId: string): Promise<Patronage[]> {
    return this.#listActive(this.db, { beneficiaryId: userId });
  }

  async lister(db: Executor, userId: string) {
    const [granted, received] = await Promise.all([
      this.#listActive(db, { patronId: userId }),
      this.#listActive(db, { beneficiaryId: userId }),
    ]);
    return { granted, received };
  }

  /**
   * The other members of a party, for a caller who may sponsor (the grant's own refusal otherwise, in its
   * words): what the caller may grant each, and whether someone already sponsors them. A member's plan is
   * account and billing information (as their email is): the caller learns only the plans they could
   * grant, and of another patron's sponsorship only that it exists (outside review, finding 2).
   */
  async eligible(userId: string, partyId: string): Promise<EligibleMember[]> {
    await this.entitlements.requireFeature(this.db, userId, 'patronage_system');
    const membership = await partiesRepository.membership(this.db, partyId, userId);
    if (!membership) throw AppError.notFound('Party not found.');
    const [members, own] = await Promise.all([
      partiesRepository.members(this.db, partyId),
      this.entitlements.ownTier(this.db, userId),
    ]);
    const others = members.filter((m) => m.membership.userId !== userId);
    const ids = others.map((m) => m.membership.userId);
    // Every member's plan and grant in one statement each: a lookup per member cost the party page two
    // statements for each of them.
    const [tiers, grants] = await Promise.all([
      this.entitlements.ownTiers(this.db, ids),
      repo.activeForMany(this.db, partyId, ids),
    ]);
    const grantOf = new Map(grants.map((grant) => [grant.patronage.beneficiaryId, grant]));
    return others.map((m) => {
      const tier = tiers.get(m.membership.userId);
      const active = grantOf.get(m.membership.userId);
      const yours = active?.patronage.patronId === userId;
      return {
        user_id: m.membership.userId,
        username: m.username,
        role: m.membership.role,
        grantable_tiers: tierIdentifiers.filter(
          (identifier) =>
            rankOf(identifier) > rankOf(tier?.identifier ?? 'tier_free') &&
            rankOf(identifier) <= rankOf(own.identifier),
        ),
        sponsored: Boolean(active),
        sponsored_by_you: yours,
        patronage_id: yours ? (active?.patronage.id ?? null) : null,
        granted_tier: yours ? (active?.tierIdentifier ?? null) : null,
      };
    });
  }

  async revoke(userId: string, id: string): Promise<void> {
    const ended = await this.db.transaction(async (tx) => {
      const row = await repo.find(tx, id, { lock: true });
      if (!row) throw AppError.notFound('Patronage not found.');
      if (row.patronId !== userId && row.beneficiaryId !== userId) {
        // A member of its party may know it exists (the Patronage panel lists it); to anyone else it does
        // not, as every other id of another party answers (DESIGN §4: 404 where existence stays hidden).
        if (!(await partiesRepository.membership(tx, row.partyId, userId)))
          throw AppError.notFound('Patronage not found.');
        throw new AppError('FORBIDDEN', messages.notYours);
      }
      if (!row.active) return null;
      await repo.end(tx, row.id, row.patronId === userId ? 'revoked' : 'declined');
      const [actor, party] = await Promise.all([
        accountsRepository.findUserById(tx, userId),
        partiesRepository.findParty(tx, row.partyId, { lock: false }),
      ]);
      const name = actor?.username ?? 'Someone';
      const partyName = party?.name ?? 'the party';
      // The other side of the grant is told: it changes what they may do in the party.
      const byPatron = row.patronId === userId;
      const recipient = {
        userId: byPatron ? row.beneficiaryId : row.patronId,
        notice: byPatron
          ? patronageNotices.ended(name, partyName)
          : patronageNotices.declined(name, partyName),
      };
      const told = await this.#notice(
        tx,
        { userId: recipient.userId, actorId: userId, started: false, partyId: row.partyId, partyName },
        recipient.notice,
      );
      return { row, name, recipient, told };
    });
    if (!ended) return;
    this.#notices.announce(ended.told);
    this.#announce(ended.row, { id: userId, name: ended.name }, false, ended.recipient);
  }

  /**
   * spec/02 §7 PartyChannel `party_update`: what the party gives a member changed without the party itself
   * being edited (that is `party_updated`). Told after the commit; the party page refreshes the party and
   * the patronage panel.
   */
  #announce(
    patronage: { partyId: string; patronId: string; beneficiaryId: string },
    actor: { id: string; name: string },
    started: boolean,
    recipient: { userId: string; notice: string },
  ) {
    this.events.publish([sponsorshipEvent(patronage, actor, started, recipient)]);
  }

  /**
   * Registered with the parties service: leaving a party ends the patronages of that member there. Answers
   * the events that tell the other side of each, for the parties service to publish once it committed.
   */
  async memberLeft(
    tx: Executor,
    partyId: string,
    userId: string,
    actorId: string = userId,
    told: string[] = [],
  ): Promise<DomainEvent[]> {
    const ending = await repo.listDetailed(tx, { partyId, activeOnly: true });
    await repo.endForMember(tx, partyId, userId, 'left_party');
    const events: DomainEvent[] = [];
    for (const row of ending) {
      if (row.patronage.patronId !== userId && row.patronage.beneficiaryId !== userId) continue;
      const patronLeft = row.patronage.patronId === userId;
      const leaver = patronLeft ? row.patronName : row.beneficiaryName;
      const recipient = {
        userId: patronLeft ? row.patronage.beneficiaryId : row.patronage.patronId,
        notice: patronLeft
          ? patronageNotices.patronLeft(leaver, row.partyName)
          : patronageNotices.beneficiaryLeft(leaver, row.partyName),
      };
      events.push(sponsorshipEvent(row.patronage, { id: userId, name: leaver }, false, recipient));
      // `actorId`: a GM who removed the member is not told of the sponsorship of theirs that it ended.
      told.push(
        ...(await this.#notice(
          tx,
          { userId: recipient.userId, actorId, started: false, partyId, partyName: row.partyName },
          recipient.notice,
        )),
      );
    }
    return events;
  }
}
