import { type PartyNotes, type PartyNotesUpdate, partyNotesMessages } from '@haversack/contracts';
import type { Database, Executor } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { EventBus } from '../../realtime/event-bus.js';
import * as policy from './parties.policy.js';
import { type MembershipRow, type PartyRow, partiesRepository } from './parties.repository.js';
import { type PartyNotesRow, partyNotesRepository as repo } from './party-notes.repository.js';

interface Actor {
  id: string;
  username: string;
}

function toNotesJson(row: PartyNotesRow, canEdit: boolean): PartyNotes {
  return {
    notes: row.notes,
    version: row.version,
    updated_at: row.updatedAt?.toISOString() ?? null,
    updated_by: row.editor,
    can_edit: canEdit,
  };
}

/**
 * Issue 14: the party's shared notes. Members read them; the GM, managers and players change them (observers
 * only read, DESIGN §4); an archived party is read-only. A save names the version it was based on: a save
 * based on an older version is refused with CONFLICT and the last editor's name, so that two members
 * editing at once never overwrite each other without knowing (docs/decisions.md, issue 14).
 */
export class PartyNotesService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
  ) {}

  async get(userId: string, partyId: string): Promise<PartyNotes> {
    const { party, membership } = await this.#memberContext(this.db, partyId, userId);
    const row = await repo.find(this.db, party.id);
    if (!row) throw AppError.notFound('Party not found.');
    return toNotesJson(row, canEdit(party, membership));
  }

  async update(actor: Actor, partyId: string, input: PartyNotesUpdate): Promise<PartyNotes> {
    const saved = await this.db.transaction(async (tx) => {
      // The notes are not a key: held as a change holds the party, rows naming it meanwhile are not held up.
      const { party, membership } = await this.#memberContext(tx, partyId, actor.id, {
        lock: 'no key update',
      });
      if (membership.role === 'observer') throw new AppError('FORBIDDEN', partyNotesMessages.observer);
      policy.assertNotArchived(party);
      const current = await repo.find(tx, party.id);
      if (!current) throw AppError.notFound('Party not found.');
      // Saving what is already there loses nothing, whichever version it started from.
      if (current.notes === input.notes) return { row: current, changed: false };
      // The party row is locked, so the version cannot move between this check and the save. Checked here
      // rather than left to the save's own condition: a version past the column's range (a 4-byte integer)
      // would reach the database as a parameter it refuses, a server error instead of this refusal.
      const conflict = () =>
        new AppError('CONFLICT', partyNotesMessages.conflict(current.editor?.username ?? 'Someone'));
      if (input.version !== current.version) throw conflict();
      const version = await repo.save(tx, party.id, {
        notes: input.notes,
        expectedVersion: input.version,
        editorId: actor.id,
        at: new Date(),
      });
      if (version === undefined) throw conflict();
      const row = await repo.find(tx, party.id);
      if (!row) throw AppError.notFound('Party not found.');
      return { row, changed: true };
    });
    if (saved.changed) {
      // spec/02 §7 PartyChannel notes_updated: every member's notes card refetches.
      this.events.publish([
        {
          channel: 'PartyChannel',
          partyId,
          action: 'notes_updated',
          actor: { id: actor.id, name: actor.username },
          summary: `${actor.username} updated the party notes`,
        },
      ]);
    }
    return toNotesJson(saved.row, true);
  }

  /** A private party does not exist for a non-member (404); a public one is refused (403). */
  async #memberContext(
    db: Executor,
    partyId: string,
    userId: string,
    options: { lock?: 'no key update' } = {},
  ): Promise<{ party: PartyRow; membership: MembershipRow }> {
    const party = await partiesRepository.findParty(db, partyId, options);
    const membership = party ? await partiesRepository.membership(db, partyId, userId) : undefined;
    policy.assertVisible(party, membership);
    if (!membership) throw new AppError('FORBIDDEN', partyNotesMessages.membersOnly);
    return { party, membership };
  }
}

function canEdit(party: PartyRow, membership: MembershipRow): boolean {
  return membership.role !== 'observer' && !party.isArchived;
}
