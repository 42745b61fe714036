import { z } from 'zod';
import { text } from './fields.js';
import { formatEnUs } from './numbers.js';

/**
 * Issue 14: a party's shared notes (spec/02 §7 PartyChannel `notes_updated`), which the GM and the players
 * edit together. A page of a few thousand words is plenty for a table's notes and keeps every save small.
 */
export const PARTY_NOTES_MAX_LENGTH = 10_000;

export const partyNotesMessages = {
  tooLong: `Notes can be at most ${formatEnUs(PARTY_NOTES_MAX_LENGTH)} characters.`,
  /** A save based on an older version: someone else saved in between (docs/decisions.md, issue 14). */
  conflict: (editor: string) =>
    `${editor} saved the notes while you were editing. Your text is still here: look at their version, then save again.`,
  membersOnly: 'Only members of this party can read and edit its notes.',
  observer: 'Observers can read the notes but not change them.',
  saved: 'Notes saved',
} as const;

export const partyNotesSchema = z.object({
  notes: z.string(),
  /** Goes up by one on every save; a save names the version it started from. */
  version: z.number().int().min(0),
  updated_at: z.string().nullable(),
  /** The last editor; null before the first save (or when that account is gone). */
  updated_by: z.object({ id: z.string(), username: z.string() }).nullable(),
  /** Whether the caller may change them: members but observers, while the party is not archived. */
  can_edit: z.boolean(),
});
export type PartyNotes = z.infer<typeof partyNotesSchema>;

export const partyNotesUpdateSchema = z.object({
  notes: text().max(PARTY_NOTES_MAX_LENGTH, partyNotesMessages.tooLong),
  version: z.number().int().min(0),
});
export type PartyNotesUpdate = z.infer<typeof partyNotesUpdateSchema>;
/** PATCH parties/{id}/notes, wrapped like the spec's other bodies (`{party}`, `{party_membership}`). */
export const partyNotesUpdateBodySchema = z.object({ party_notes: partyNotesUpdateSchema });
