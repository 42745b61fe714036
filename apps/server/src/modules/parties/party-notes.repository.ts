import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { users } from '../../db/schema/accounts.js';
import { parties } from '../../db/schema/parties.js';

export interface PartyNotesRow {
  notes: string;
  version: number;
  updatedAt: Date | null;
  editor: { id: string; username: string } | null;
}

/** Issue 14: the party's shared notes, with their version and last editor. */
export const partyNotesRepository = {
  async find(db: Executor, partyId: string): Promise<PartyNotesRow | undefined> {
    const [row] = await db
      .select({
        notes: parties.notes,
        version: parties.notesVersion,
        updatedAt: parties.notesUpdatedAt,
        editorId: users.id,
        editorName: users.username,
      })
      .from(parties)
      .leftJoin(users, eq(users.id, parties.notesUpdatedById))
      .where(eq(parties.id, partyId))
      .limit(1);
    if (!row) return undefined;
    return {
      notes: row.notes,
      version: row.version,
      updatedAt: row.updatedAt,
      editor: row.editorId && row.editorName !== null ? { id: row.editorId, username: row.editorName } : null,
    };
  },

  /**
   * Saves the notes only if they are still at `expectedVersion`, in one statement, so that of two saves
   * based on the same version exactly one wins. Returns the new version, or undefined when it lost.
   */
  async save(
    db: Executor,
    partyId: string,
    input: { notes: string; expectedVersion: number; editorId: string; at: Date },
  ): Promise<number | undefined> {
    const [row] = await db
      .update(parties)
      .set({
        notes: input.notes,
        notesVersion: input.expectedVersion + 1,
        notesUpdatedAt: input.at,
        notesUpdatedById: input.editorId,
      })
      .where(and(eq(parties.id, partyId), eq(parties.notesVersion, input.expectedVersion)))
      .returning({ version: parties.notesVersion });
    return row?.version;
  },
};
