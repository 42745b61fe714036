import { eq, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { users } from '../../db/schema/accounts.js';
import {
  discordAccounts,
  discordAnsweredInteractions,
  discordChannelBindings,
} from '../../db/schema/discord.js';

export type DiscordAccountRow = typeof discordAccounts.$inferSelect;
export type ChannelBindingRow = typeof discordChannelBindings.$inferSelect;

/** The only place that builds the Discord module's queries. */
export const discordRepository = {
  /**
   * Marks an interaction answered; false when it already was. Those answered before `forgetBefore` are
   * dropped first: their signatures have expired, so they can no longer be sent again.
   */
  async claimInteraction(db: Executor, interactionId: string, forgetBefore: Date): Promise<boolean> {
    await db
      .delete(discordAnsweredInteractions)
      .where(lt(discordAnsweredInteractions.answeredAt, forgetBefore));
    const claimed = await db
      .insert(discordAnsweredInteractions)
      .values({ interactionId })
      .onConflictDoNothing()
      .returning({ id: discordAnsweredInteractions.interactionId });
    return claimed.length > 0;
  },

  async accountOfUser(db: Executor, userId: string): Promise<DiscordAccountRow | undefined> {
    const [row] = await db.select().from(discordAccounts).where(eq(discordAccounts.userId, userId)).limit(1);
    return row;
  },

  /** The Haversack user linked to a Discord user, with the link. */
  async userOfDiscordId(db: Executor, discordUserId: string) {
    const [row] = await db
      .select({ user: users, account: discordAccounts })
      .from(discordAccounts)
      .innerJoin(users, eq(users.id, discordAccounts.userId))
      .where(eq(discordAccounts.discordUserId, discordUserId))
      .limit(1);
    return row;
  },

  async insertAccount(
    db: Executor,
    values: { userId: string; discordUserId: string; discordUsername: string },
  ): Promise<DiscordAccountRow> {
    const [row] = await db.insert(discordAccounts).values(values).returning();
    if (!row) throw new Error('insert discord_accounts returned nothing');
    return row;
  },

  /** Keeps the shown Discord username current at each sign-in (people rename themselves). */
  async renameAccount(db: Executor, userId: string, discordUsername: string): Promise<void> {
    await db.update(discordAccounts).set({ discordUsername }).where(eq(discordAccounts.userId, userId));
  },

  async deleteAccount(db: Executor, userId: string): Promise<boolean> {
    const deleted = await db
      .delete(discordAccounts)
      .where(eq(discordAccounts.userId, userId))
      .returning({ userId: discordAccounts.userId });
    return deleted.length > 0;
  },

  async bindingOfChannel(db: Executor, channelId: string): Promise<ChannelBindingRow | undefined> {
    const [row] = await db
      .select()
      .from(discordChannelBindings)
      .where(eq(discordChannelBindings.channelId, channelId))
      .limit(1);
    return row;
  },

  /** Binds the channel to the party, replacing the party it was bound to before. */
  async bindChannel(
    db: Executor,
    values: { guildId: string; channelId: string; partyId: string; boundBy: string },
  ): Promise<ChannelBindingRow> {
    const [row] = await db
      .insert(discordChannelBindings)
      .values(values)
      .onConflictDoUpdate({
        target: discordChannelBindings.channelId,
        set: {
          guildId: values.guildId,
          partyId: values.partyId,
          boundBy: values.boundBy,
          createdAt: new Date(),
        },
      })
      .returning();
    if (!row) throw new Error('upsert discord_channel_bindings returned nothing');
    return row;
  },

  async unbindChannel(db: Executor, channelId: string): Promise<void> {
    await db.delete(discordChannelBindings).where(eq(discordChannelBindings.channelId, channelId));
  },
};
