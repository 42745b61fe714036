import { defaultPreferences, type Preferences, preferencesSchema } from '@haversack/contracts';
import type { Database } from '../../db/client.js';
import { preferencesRepository as repo } from './preferences.repository.js';

/** Stored preferences are a partial object; anything missing or no longer valid reads as its default. */
function withDefaults(stored: Record<string, unknown> | undefined): Preferences {
  const result: Preferences = { ...defaultPreferences };
  const shape = preferencesSchema.shape;
  for (const key of Object.keys(shape) as (keyof Preferences)[]) {
    const parsed = shape[key].safeParse(stored?.[key]);
    if (parsed.success) Object.assign(result, { [key]: parsed.data });
  }
  return result;
}

export class PreferencesService {
  constructor(private readonly db: Database) {}

  async get(userId: string): Promise<Preferences> {
    return withDefaults(await repo.read(this.db, userId));
  }

  async update(userId: string, changes: Partial<Preferences>): Promise<Preferences> {
    return withDefaults(await repo.merge(this.db, userId, changes));
  }
}
