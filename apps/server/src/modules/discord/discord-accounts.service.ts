import {
  type DiscordAccount,
  type DiscordCallbackBody,
  type DiscordCallbackResult,
  type DiscordLink,
  type DiscordMode,
  discordMessages,
} from '@haversack/contracts';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import type { AccountsService, AuthenticatedUser, ClientInfo } from '../accounts/accounts.service.js';
import { type DiscordAccountRow, discordRepository as repo } from './discord.repository.js';
import type { DiscordOAuth, DiscordUser } from './discord-oauth.js';
import type { OAuthStateCookies } from './discord-oauth-state.js';

interface Deps {
  db: Database;
  accounts: AccountsService;
  /** Undefined when DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET are not both set. */
  oauth: DiscordOAuth | undefined;
  states: OAuthStateCookies;
}

const toAccountJson = (row: DiscordAccountRow): DiscordAccount => ({
  discord_user_id: row.discordUserId,
  username: row.discordUsername,
  linked_at: row.linkedAt.toISOString(),
});

/** The name people know a Discord user by: the display name when set, else the unique username. */
const displayedName = (user: DiscordUser) => user.global_name?.trim() || user.username;

/** A finished sign-in (not a link). */
type SignedIn = Extract<DiscordCallbackResult, { mode: 'login' }>;

/** Issue 16 §1: sign in, sign up and link with Discord; unlink without locking anyone out. */
export class DiscordAccountsService {
  readonly #deps: Deps;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  get signInEnabled(): boolean {
    return this.#deps.oauth !== undefined;
  }

  #oauth(): DiscordOAuth {
    if (!this.#deps.oauth) throw AppError.notFound(discordMessages.notConfigured);
    return this.#deps.oauth;
  }

  /**
   * Starts a flow: Discord's authorize URL and the sealed state for the browser's cookie. A sign-in keeps
   * the page it was started for (a path of this app, as the start call's schema checked) with the state,
   * never in a query Discord sends back: the callback answers it from the cookie alone.
   */
  async start(
    mode: DiscordMode,
    auth: AuthenticatedUser | null,
    redirect?: string,
  ): Promise<{ url: string; cookie: string }> {
    const oauth = this.#oauth();
    if (mode === 'link' && !auth) throw new AppError('UNAUTHORIZED', discordMessages.linkNeedsSignIn);
    const { state, codeVerifier, url } = oauth.begin();
    const cookie = await this.#deps.states.seal({
      state,
      codeVerifier,
      mode,
      ...(mode === 'link' && auth ? { userId: auth.user.id } : {}),
      ...(mode === 'login' && redirect ? { redirect } : {}),
    });
    return { url, cookie };
  }

  /** Finishes a flow started by `start` in this browser (its cookie), with the code Discord sent back. */
  async callback(
    body: DiscordCallbackBody,
    cookie: string | undefined,
    auth: AuthenticatedUser | null,
    client: ClientInfo,
  ): Promise<DiscordCallbackResult> {
    const oauth = this.#oauth();
    const flow = await this.#deps.states.open(cookie, body.state);
    if (!flow) throw new AppError('BAD_REQUEST', discordMessages.stateInvalid);
    if (flow.mode === 'link') {
      if (!auth) throw new AppError('UNAUTHORIZED', discordMessages.linkNeedsSignIn);
      if (auth.user.id !== flow.userId) throw new AppError('BAD_REQUEST', discordMessages.linkWrongUser);
    }
    const discordUser = await oauth.user(body.code, flow.codeVerifier);
    if (flow.mode === 'link' && auth) {
      return { mode: 'link', account: toAccountJson(await this.#link(auth.user.id, discordUser)) };
    }
    const signedIn = await this.#signIn(discordUser, client);
    return flow.redirect ? { ...signedIn, redirect: flow.redirect } : signedIn;
  }

  async #signIn(discordUser: DiscordUser, client: ClientInfo): Promise<SignedIn> {
    const linked = await repo.userOfDiscordId(this.#deps.db, discordUser.id);
    if (linked) {
      const name = displayedName(discordUser);
      if (linked.account.discordUsername !== name)
        await repo.renameAccount(this.#deps.db, linked.user.id, name);
      return {
        mode: 'login',
        created: false,
        session: await this.#deps.accounts.signInVerified(linked.user, client),
      };
    }
    const email = discordUser.email?.trim();
    if (!email) throw new AppError('BAD_REQUEST', discordMessages.noEmail);
    try {
      const session = await this.#deps.accounts.registerExternal(
        {
          email,
          wantedUsername: discordUser.username,
          // Issue 16 §1: Discord's address counts as verified only when Discord says it verified it.
          emailVerified: discordUser.verified === true,
          emailTakenMessage: discordMessages.emailTaken,
        },
        client,
        async (tx, user) => {
          await repo.insertAccount(tx, {
            userId: user.id,
            discordUserId: discordUser.id,
            discordUsername: displayedName(discordUser),
          });
        },
      );
      return { mode: 'login', created: true, session };
    } catch (error) {
      // The same Discord user finishing two sign-ins at once: the unique index lets one account through.
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', discordMessages.linkedElsewhere);
      throw error;
    }
  }

  async #link(userId: string, discordUser: DiscordUser): Promise<DiscordAccountRow> {
    return this.#deps.db
      .transaction(async (tx) => {
        const holder = await repo.userOfDiscordId(tx, discordUser.id);
        if (holder && holder.user.id !== userId)
          throw new AppError('CONFLICT', discordMessages.linkedElsewhere);
        if (holder) return holder.account;
        if (await repo.accountOfUser(tx, userId))
          throw new AppError('CONFLICT', discordMessages.alreadyLinked);
        return repo.insertAccount(tx, {
          userId,
          discordUserId: discordUser.id,
          discordUsername: displayedName(discordUser),
        });
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw new AppError('CONFLICT', discordMessages.linkedElsewhere);
        throw error;
      });
  }

  async linkOf(auth: AuthenticatedUser): Promise<DiscordLink> {
    const account = await repo.accountOfUser(this.#deps.db, auth.user.id);
    return {
      account: account ? toAccountJson(account) : null,
      has_password: auth.user.passwordHash !== null,
    };
  }

  /** Never leaves an account without a way to sign in: one made through Discord needs a password first. */
  async unlink(auth: AuthenticatedUser): Promise<void> {
    if (auth.user.passwordHash === null) throw new AppError('CONFLICT', discordMessages.unlinkNeedsPassword);
    const deleted = await repo.deleteAccount(this.#deps.db, auth.user.id);
    if (!deleted) throw AppError.notFound(discordMessages.notLinked);
  }
}
