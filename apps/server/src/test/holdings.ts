import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { itemInstances } from '../db/schema/items.js';
import type { SignedInUser } from './factories.js';

/** A JSON answer in the envelope (DESIGN §3), typed by what `data` holds. */
export type Envelope<T> = {
  status: string;
  data: T;
  message?: string;
  error?: { code: string; message: string; details?: { field: string; message: string }[] };
};
export const body = <T>(response: { json(): unknown }) => response.json() as Envelope<T>;

/** The ledger's actor for a signed-in user, as the services take it. */
export const actorOf = (u: SignedInUser) => ({ id: u.user.id, username: u.user.username });

const copper: Record<string, number> = { cp: 1, sp: 10, ep: 50, gp: 100, pp: 1000 };

/**
 * What a container holds, read straight from the table (not through the API under test): its coins in copper
 * and its quantity of one template. `db` is read at each call, so the test's context may be built later.
 */
export function holdingsOf(db: () => Database) {
  return {
    async coinsIn(containerId: string): Promise<number> {
      const rows = await db()
        .select({ key: sql<string>`t.system_key`, n: sql<string>`sum(${itemInstances.quantity})` })
        .from(itemInstances)
        .innerJoin(sql`item_templates t`, sql`t.id = ${itemInstances.itemTemplateId}`)
        .where(and(eq(itemInstances.containerId, containerId), sql`t.system_key like 'coin:%'`))
        .groupBy(sql`t.system_key`);
      return rows.reduce((sum, r) => sum + Number(r.n) * (copper[r.key.slice(5)] ?? 0), 0);
    },
    async quantityIn(containerId: string, templateId: string): Promise<number> {
      const rows = await db()
        .select({ n: itemInstances.quantity })
        .from(itemInstances)
        .where(and(eq(itemInstances.containerId, containerId), eq(itemInstances.itemTemplateId, templateId)));
      return rows.reduce((sum, r) => sum + r.n, 0);
    },
  };
}
