import { formatEnUs } from '@haversack/contracts';
import type { Executor } from '../../db/client.js';
import { type LedgerEntry, ledgerRepository } from '../ledger/ledger.repository.js';
import { inventoryRepository as repo } from './inventory.repository.js';

export interface LedgerActor {
  id: string;
  username: string;
}

/**
 * Destroys everything in the given containers, writing one ledger row per stack, so that replaying the
 * ledger still empties them (a character or party deleted with its gear). `extra` is added to every row
 * (loot marks its rows with the loot instance and whether only the GM may read them).
 */
export async function destroyContainerContents(
  tx: Executor,
  containerIds: string[],
  actor: LedgerActor,
  transactionType: 'character_deletion' | 'container_deletion' | 'delete',
  context: {
    partyId: string | null;
    characterId: string | null;
    targetName: string | null;
    /** What `targetName` names (a character, party, shop or loot). */
    targetId: string | null;
    /** Whose the containers are, named after each as moves name them ("Backpack (Korrin)"). */
    ownerName?: string;
  },
  extra: Pick<LedgerEntry, 'lootInstanceId' | 'gmOnly' | 'details'> = {},
) {
  // All locked, in id order, before any stack is read: a stack moved in meanwhile would otherwise be
  // missed, and its container could not be deleted after.
  const locked = new Map((await repo.lockContainers(tx, containerIds)).map((c) => [c.id, c]));
  for (const containerId of containerIds) {
    const stacks = await repo.allInstances(tx, containerId);
    if (stacks.length === 0) continue;
    const container = locked.get(containerId);
    const where = container ? `${container.name}${context.ownerName ? ` (${context.ownerName})` : ''}` : null;
    const withTemplates = await repo.instancesWithTemplates(
      tx,
      stacks.map((s) => s.id),
    );
    await ledgerRepository.record(
      tx,
      withTemplates.map(({ instance, template }) => {
        const name = (instance.instanceData.name_override as string | undefined) ?? template.name;
        return {
          transactionType,
          partyId: context.partyId,
          characterId: context.characterId,
          actorId: actor.id,
          actorName: actor.username,
          targetName: context.targetName,
          targetId: context.targetId,
          itemTemplateId: template.id,
          itemInstanceId: instance.id,
          itemName: name,
          quantity: instance.quantity,
          sourceContainerId: containerId,
          sourceName: where,
          summary: `${actor.username} destroyed ${formatEnUs(instance.quantity)} × ${name} with ${where ?? 'a container'}`,
          ...extra,
        };
      }),
    );
    for (const stack of stacks) await repo.deleteInstance(tx, stack.id);
  }
}
