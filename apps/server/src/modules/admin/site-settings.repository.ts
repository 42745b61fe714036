import type { Executor } from '../../db/client.js';
import { appSettings } from '../../db/schema/admin.js';

/** The only place that builds site settings queries. */
export const siteSettingsRepository = {
  async all(db: Executor): Promise<Map<string, unknown>> {
    const rows = await db.select().from(appSettings);
    return new Map(rows.map((row) => [row.key, row.value]));
  },

  async put(db: Executor, key: string, value: unknown, by: string, at: Date): Promise<void> {
    await db
      .insert(appSettings)
      .values({ key, value, updatedBy: by, updatedAt: at })
      .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedBy: by, updatedAt: at } });
  },
};
