import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { characters } from '../../db/schema/characters.js';
import { AppError } from '../../lib/app-error.js';
import { inventoryRepository } from './inventory.repository.js';
import { type EncumbranceStyle, enforcedLimits, limitOf } from './inventory-rules.js';

/**
 * A limit lowered below what a container already holds would leave it over capacity, which no move may
 * do (DESIGN §4), and its bars would read 100 % at twice that: refused, naming what it holds. One rule for
 * the container's own edit and for a character's edit, which sets its primary container's limits.
 */
export async function assertHoldsNoMoreThan(
  tx: Executor,
  container: { id: string; style: EncumbranceStyle | null },
  changes: { max_weight?: number | null | undefined; max_slots?: number | null | undefined },
  fields: { prefix: 'container' | 'character'; holder: string },
) {
  const enforces = enforcedLimits(container.style);
  const weight = enforces.weight && changes.max_weight !== undefined ? limitOf(changes.max_weight) : null;
  const slots = enforces.slots && changes.max_slots !== undefined ? limitOf(changes.max_slots) : null;
  if (weight === null && slots === null) return;
  const usage = (await inventoryRepository.usage(tx, [container.id])).get(container.id);
  if (!usage) return;
  const refusals: { field: string; message: string }[] = [];
  if (weight !== null && usage.weight > weight) {
    const held = Math.round(usage.weight * 100) / 100;
    refusals.push({
      field: `${fields.prefix}.max_weight`,
      message: `${fields.holder} already holds ${held} lbs: its max weight cannot be lower`,
    });
  }
  if (slots !== null && usage.slots > slots) {
    refusals.push({
      field: `${fields.prefix}.max_slots`,
      message: `${fields.holder} already holds ${usage.slots} stacks: its max slots cannot be lower`,
    });
  }
  if (refusals.length > 0) throw AppError.validation(refusals);
}

/** The character's own capacity follows its primary container's, so both screens show one limit. */
export async function syncCharacterCapacity(
  tx: Executor,
  characterId: string,
  changes: { max_weight?: number | null | undefined; max_slots?: number | null | undefined },
) {
  if (changes.max_weight === undefined && changes.max_slots === undefined) return;
  await tx
    .update(characters)
    .set({
      ...(changes.max_weight !== undefined ? { maxWeight: changes.max_weight } : {}),
      ...(changes.max_slots !== undefined ? { maxSlots: changes.max_slots } : {}),
      updatedAt: new Date(),
    })
    .where(eq(characters.id, characterId));
}
