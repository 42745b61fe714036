import { randomBytes } from 'node:crypto';
import {
  API_TOKEN_LAST_USED_RESOLUTION_S,
  API_TOKEN_PREFIX,
  type ApiToken,
  type ApiTokenCreate,
  type ApiTokenCreated,
  type ApiTokenScope,
  apiTokenMessages,
  MAX_API_TOKENS,
} from '@haversack/contracts';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { hashToken } from '../../lib/secrets.js';
import type { UserRow } from '../accounts/accounts.repository.js';
import type { EntitlementService } from '../subscriptions/entitlements.service.js';
import { type ApiTokenRow, apiTokensRepository as repo } from './api-tokens.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How a request authenticated with an API token is known to the rest of the app. */
export interface ApiTokenCredential {
  id: string;
  scope: ApiTokenScope;
}

/** The secret: the prefix and 32 random bytes (256 bits), URL-safe so it survives any header or shell. */
function newSecret(): string {
  return `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function isApiTokenSecret(token: string): boolean {
  return token.startsWith(API_TOKEN_PREFIX);
}

/**
 * Issue 16 §5: personal API tokens. Only users whose own tier has `api_access` create and use them
 * (tokens belong to a user, not to a party, so a patronage never grants them).
 */
export class ApiTokensService {
  constructor(
    private readonly db: Database,
    private readonly entitlements: EntitlementService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(userId: string): Promise<ApiToken[]> {
    const rows = await repo.listActive(this.db, userId);
    return rows.map((row) => this.#toJson(row));
  }

  async create(userId: string, form: ApiTokenCreate): Promise<ApiTokenCreated> {
    const secret = newSecret();
    const now = this.now();
    const row = await this.db.transaction(async (tx) => {
      await this.entitlements.requireFeature(tx, userId, 'api_access');
      await repo.lockUser(tx, userId);
      if ((await repo.countActive(tx, userId)) >= MAX_API_TOKENS) {
        throw new AppError('LIMIT_EXCEEDED', apiTokenMessages.tooMany, {
          details: [
            {
              field: 'api_tokens',
              message: apiTokenMessages.tooMany,
              resource: 'api_tokens',
              limit: MAX_API_TOKENS,
            },
          ],
        });
      }
      return repo.insert(tx, {
        userId,
        name: form.name,
        scope: form.scope,
        tokenHash: hashToken(secret),
        hint: secret.slice(0, API_TOKEN_PREFIX.length + 4),
        expiresAt:
          form.expires_in_days === null ? null : new Date(now.getTime() + form.expires_in_days * DAY_MS),
        createdAt: now,
      });
    });
    return { ...this.#toJson(row), token: secret };
  }

  async revoke(userId: string, id: string): Promise<void> {
    const revoked = await repo.revoke(this.db, userId, id, this.now());
    if (!revoked) throw new AppError('RESOURCE_NOT_FOUND', 'API token not found');
  }

  /**
   * The user behind a bearer `hvk_` secret: 401 when it is unknown, revoked or expired; 403
   * FEATURE_NOT_AVAILABLE when the user's plan no longer includes API access (the token comes back to
   * life if they upgrade again, until it expires).
   */
  async authenticate(secret: string): Promise<{ user: UserRow; apiToken: ApiTokenCredential }> {
    const found = await repo.findByHash(this.db, hashToken(secret));
    if (!found) throw new AppError('INVALID_TOKEN', 'This API token is not valid.');
    const { token, user } = found;
    const now = this.now();
    if (token.revokedAt) throw new AppError('REVOKED_TOKEN', apiTokenMessages.revoked);
    // Suspension ends every way in (docs/decisions.md); the token is kept for a lifted suspension.
    if (user.suspendedAt) throw new AppError('ACCOUNT_SUSPENDED');
    if (token.expiresAt && token.expiresAt <= now)
      throw new AppError('EXPIRED_TOKEN', apiTokenMessages.expired);
    await this.entitlements.requireFeature(this.db, user.id, 'api_access');
    await repo.touch(
      this.db,
      token.id,
      now,
      new Date(now.getTime() - API_TOKEN_LAST_USED_RESOLUTION_S * 1000),
    );
    return { user, apiToken: { id: token.id, scope: token.scope } };
  }

  #toJson(row: ApiTokenRow): ApiToken {
    return {
      id: row.id,
      name: row.name,
      scope: row.scope,
      hint: row.hint,
      expires_at: row.expiresAt?.toISOString() ?? null,
      last_used_at: row.lastUsedAt?.toISOString() ?? null,
      expired: row.expiresAt !== null && row.expiresAt <= this.now(),
      created_at: row.createdAt.toISOString(),
    };
  }
}
