import { AppError } from '../../lib/app-error.js';
import type { CharacterRow } from './characters.repository.js';

// spec/02 §6: a character belongs to its player; party members may look at the party's characters.

/** Owner or a member of the character's party may read; anyone else is told it does not exist. */
export function assertReadable(
  character: CharacterRow | undefined,
  userId: string,
  isPartyMember: boolean,
): asserts character is CharacterRow {
  if (!character || (character.userId !== userId && !isPartyMember))
    throw AppError.notFound('Character not found.');
}

export function assertOwner(character: CharacterRow, userId: string): void {
  if (character.userId !== userId)
    throw new AppError('FORBIDDEN', 'Only the character’s player can change it.');
}
