import type { SiteSettings } from '@haversack/contracts';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { type AdminCaller, auditActor } from './admin-guard.js';
import type { AuditLog } from './audit-log.js';
import { siteSettingsRepository } from './site-settings.repository.js';

const settingKeys = ['maintenance_mode', 'registration_open'] as const;
const defaults: SiteSettings = { maintenance_mode: false, registration_open: true };

/**
 * Read on every write request, so kept in memory for a few seconds: a change made here applies at once
 * in this process and within CACHE_MS in the others (docs/decisions.md).
 */
const CACHE_MS = 5_000;

export class SiteSettingsService {
  readonly #db: Database;
  readonly #audit: AuditLog;
  readonly #now: () => Date;
  #cached: { settings: SiteSettings; at: number } | undefined;

  constructor(deps: { db: Database; audit: AuditLog; now: () => Date }) {
    this.#db = deps.db;
    this.#audit = deps.audit;
    this.#now = deps.now;
  }

  async current(): Promise<SiteSettings> {
    if (this.#cached && Date.now() - this.#cached.at < CACHE_MS) return this.#cached.settings;
    const stored = await siteSettingsRepository.all(this.#db);
    const settings: SiteSettings = {
      maintenance_mode:
        typeof stored.get('maintenance_mode') === 'boolean'
          ? stored.get('maintenance_mode') === true
          : defaults.maintenance_mode,
      registration_open:
        typeof stored.get('registration_open') === 'boolean'
          ? stored.get('registration_open') === true
          : defaults.registration_open,
    };
    this.#cached = { settings, at: Date.now() };
    return settings;
  }

  async update(caller: AdminCaller, changes: Partial<SiteSettings>): Promise<SiteSettings> {
    // `{"settings": {}}` (or only unknown names, which the schema drops) changes nothing: say so rather
    // than answer a success that reads as "saved".
    if (settingKeys.every((key) => changes[key] === undefined))
      throw AppError.validation(
        [{ field: 'settings', message: `Name at least one setting to change: ${settingKeys.join(' or ')}.` }],
        'No setting to change: name at least one of maintenance_mode and registration_open.',
      );
    this.#cached = undefined;
    const before = await this.current();
    const now = this.#now();
    await this.#db.transaction(async (tx) => {
      for (const key of settingKeys) {
        const value = changes[key];
        if (value === undefined || before[key] === value) continue;
        await siteSettingsRepository.put(tx, key, value, caller.user.id, now);
        await this.#audit.record(tx, {
          ...auditActor(caller),
          action: 'setting_changed',
          targetType: 'setting',
          targetId: key,
          before: { [key]: before[key] },
          after: { [key]: value },
        });
      }
    });
    this.#cached = undefined;
    return this.current();
  }
}
