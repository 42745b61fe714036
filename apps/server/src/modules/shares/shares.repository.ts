import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { users } from '../../db/schema/accounts.js';
import { shareLinks } from '../../db/schema/shares.js';

export type ShareLinkRow = typeof shareLinks.$inferSelect;
/** One of the user's links, named by its id or by its code (DELETE shares/{id} takes either). */
export type ShareReference = { id: string } | { code: string };

export type ShareTarget =
  | { kind: 'character'; id: string }
  | { kind: 'loot'; id: string }
  | { kind: 'shop'; id: string };

const targetColumn = {
  character: shareLinks.characterId,
  loot: shareLinks.lootInstanceId,
  shop: shareLinks.shopInstanceId,
} as const;

export function targetOf(row: ShareLinkRow): ShareTarget | undefined {
  if (row.kind === 'character' && row.characterId) return { kind: 'character', id: row.characterId };
  if (row.kind === 'loot' && row.lootInstanceId) return { kind: 'loot', id: row.lootInstanceId };
  if (row.kind === 'shop' && row.shopInstanceId) return { kind: 'shop', id: row.shopInstanceId };
  return undefined;
}

/** Issue 16 §3: share links and the names of what they point at. */
export const sharesRepository = {
  /** A live link, of an account that is not suspended (suspension takes its shared pages down too). */
  async findActiveByCode(db: Executor, code: string): Promise<ShareLinkRow | undefined> {
    const [row] = await db
      .select({ link: shareLinks })
      .from(shareLinks)
      .innerJoin(users, eq(users.id, shareLinks.userId))
      .where(and(eq(shareLinks.code, code), isNull(shareLinks.revokedAt), isNull(users.suspendedAt)))
      .limit(1);
    return row?.link;
  },

  /** The user's live link to this target, so that sharing twice hands out the same link. */
  async findActiveForTarget(
    db: Executor,
    userId: string,
    target: ShareTarget,
  ): Promise<ShareLinkRow | undefined> {
    const [row] = await db
      .select()
      .from(shareLinks)
      .where(
        and(
          eq(shareLinks.userId, userId),
          eq(targetColumn[target.kind], target.id),
          isNull(shareLinks.revokedAt),
        ),
      )
      .limit(1);
    return row;
  },

  async insert(db: Executor, values: { code: string; userId: string; target: ShareTarget; at: Date }) {
    const [row] = await db
      .insert(shareLinks)
      .values({
        code: values.code,
        userId: values.userId,
        kind: values.target.kind,
        characterId: values.target.kind === 'character' ? values.target.id : null,
        lootInstanceId: values.target.kind === 'loot' ? values.target.id : null,
        shopInstanceId: values.target.kind === 'shop' ? values.target.id : null,
        createdAt: values.at,
      })
      .returning();
    if (!row) throw new Error('insert share_links returned nothing');
    return row;
  },

  /**
   * The user's live links, newest first. What each points at is read by the service, through the user's
   * rights as they are now (a name read here would leak loot hidden since, or a party left).
   */
  async listActive(db: Executor, userId: string): Promise<ShareLinkRow[]> {
    return db
      .select()
      .from(shareLinks)
      .where(and(eq(shareLinks.userId, userId), isNull(shareLinks.revokedAt)))
      .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id));
  },

  async revoke(
    db: Executor,
    userId: string,
    link: ShareReference,
    at: Date,
  ): Promise<ShareLinkRow | undefined> {
    const named = 'id' in link ? eq(shareLinks.id, link.id) : eq(shareLinks.code, link.code);
    const [row] = await db
      .update(shareLinks)
      .set({ revokedAt: at })
      .where(and(named, eq(shareLinks.userId, userId), isNull(shareLinks.revokedAt)))
      .returning();
    return row;
  },
};
