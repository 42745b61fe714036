import { partyMessages } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { characters } from '../../db/schema/characters.js';
import { parties } from '../../db/schema/parties.js';
import { AppError } from '../../lib/app-error.js';
import { partiesRepository } from '../parties/parties.repository.js';
import type { ContainerContext } from './inventory.repository.js';

/**
 * Issue 12 party rule: when a party's `item_conjuring` is 'gm_only', only its Game Master creates items
 * from nothing in the party's containers and its characters': marketplace adds, raising a stack's
 * quantity or its value (a shop pays that value out in coins), and bringing items in from outside the
 * party (made where the rule does not reach: a character in no party). A character outside any party is
 * its owner's business. Loot, shops and transfers within the party move or pay for what already exists.
 */
export async function assertMayConjure(
  db: Executor,
  actorId: string,
  context: { party: Pick<NonNullable<ContainerContext['party']>, 'id' | 'gameMasterId'> | null },
  refusal: () => AppError = () => new AppError('FORBIDDEN', partyMessages.conjuringGmOnly),
): Promise<void> {
  const party = context.party;
  if (!party || party.gameMasterId === actorId) return;
  const [row] = await db
    .select({ rule: parties.itemConjuring })
    .from(parties)
    .where(eq(parties.id, party.id))
    .limit(1);
  if (row?.rule !== 'gm_only') return;
  const membership = await partiesRepository.membership(db, party.id, actorId);
  if (membership?.role === 'gm') return;
  throw refusal();
}

/**
 * The party a character is in as of this statement. The lock-and-locate statement of a move reads the
 * character with the container it locks; a character that joined a party while the move waited for that
 * lock is read as it was before, so the move asks again where it matters.
 */
export async function partyOfCharacterNow(
  db: Executor,
  characterId: string,
): Promise<{ id: string; gameMasterId: string } | null> {
  const [row] = await db
    .select({ id: parties.id, gameMasterId: parties.gameMasterId })
    .from(characters)
    .innerJoin(parties, eq(parties.id, characters.partyId))
    .where(eq(characters.id, characterId))
    .limit(1);
  return row ?? null;
}
