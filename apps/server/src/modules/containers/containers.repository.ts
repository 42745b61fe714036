import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { containers } from '../../db/schema/inventory.js';

export type ContainerRow = typeof containers.$inferSelect;

export const containersRepository = {
  async insert(db: Executor, values: typeof containers.$inferInsert): Promise<ContainerRow> {
    const [row] = await db.insert(containers).values(values).returning();
    if (!row) throw new Error('insert containers returned nothing');
    return row;
  },

  async listForCharacter(db: Executor, characterId: string): Promise<ContainerRow[]> {
    return db.select().from(containers).where(eq(containers.characterId, characterId));
  },
};
