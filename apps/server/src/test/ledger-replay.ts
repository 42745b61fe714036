import { inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { transactions } from '../db/schema/inventory.js';
import { itemInstances } from '../db/schema/items.js';

/**
 * Contents of the given containers rebuilt from the ledger alone (as inventory.invariants.test.ts replays
 * it), keyed `container/template`; a container emptied or deleted through the ledger replays to nothing.
 */
export async function replayLedger(db: Executor, containerIds: string[]): Promise<Map<string, number>> {
  const rows = await db
    .select()
    .from(transactions)
    .where(
      sql`(${inArray(transactions.sourceContainerId, containerIds)} or ${inArray(transactions.destinationContainerId, containerIds)}) and ${transactions.itemTemplateId} is not null`,
    );
  const contents = new Map<string, number>();
  const add = (container: string, template: string, quantity: number) => {
    const key = `${container}/${template}`;
    contents.set(key, (contents.get(key) ?? 0) + quantity);
  };
  for (const row of rows) {
    if (!row.itemTemplateId || row.quantity === null) continue;
    if (row.sourceContainerId && row.sourceContainerId === row.destinationContainerId) continue;
    if (row.sourceContainerId) add(row.sourceContainerId, row.itemTemplateId, -row.quantity);
    if (row.destinationContainerId) add(row.destinationContainerId, row.itemTemplateId, row.quantity);
  }
  for (const [key, quantity] of contents) if (quantity === 0) contents.delete(key);
  return contents;
}

/** What the given containers hold now, keyed as `replayLedger` keys it. */
export async function actualContents(db: Executor, containerIds: string[]): Promise<Map<string, number>> {
  const rows = await db
    .select({
      containerId: itemInstances.containerId,
      templateId: itemInstances.itemTemplateId,
      quantity: sql<number>`sum(${itemInstances.quantity})::int`,
    })
    .from(itemInstances)
    .where(inArray(itemInstances.containerId, containerIds))
    .groupBy(itemInstances.containerId, itemInstances.itemTemplateId);
  return new Map(rows.map((r) => [`${r.containerId}/${r.templateId}`, Number(r.quantity)]));
}
