import { discordMessages } from '@haversack/contracts';
import {
  CodeChallengeMethod,
  generateCodeVerifier,
  generateState,
  OAuth2Client,
  OAuth2RequestError,
} from 'arctic';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';

/** What Discord's GET /users/@me answers that we use (scopes identify and email). */
const discordUserSchema = z.object({
  id: z.string().min(1),
  username: z.string().min(1),
  global_name: z.string().nullish(),
  email: z.string().nullish(),
  verified: z.boolean().nullish(),
});
export type DiscordUser = z.infer<typeof discordUserSchema>;

/** A Discord call that takes longer than this is treated as Discord being unreachable. */
const DISCORD_TIMEOUT_MS = 10_000;

const unreachable = () => new AppError('SERVICE_UNAVAILABLE', discordMessages.unreachable);

/**
 * Discord's OAuth 2 authorization code flow with PKCE through arctic's generic client. arctic's `Discord`
 * provider hardcodes https://discord.com; the generic client takes the same endpoints built from a base
 * URL, so tests run the whole flow against a local stand-in (DISCORD_API_BASE_URL).
 */
export class DiscordOAuth {
  readonly #client: OAuth2Client;
  readonly #baseUrl: string;

  constructor(options: { clientId: string; clientSecret: string; redirectUri: string; baseUrl: string }) {
    this.#client = new OAuth2Client(options.clientId, options.clientSecret, options.redirectUri);
    this.#baseUrl = options.baseUrl;
  }

  /** A fresh state and PKCE verifier, and the authorize URL that carries the state and the challenge. */
  begin(): { state: string; codeVerifier: string; url: string } {
    const state = generateState();
    const codeVerifier = generateCodeVerifier();
    const url = this.#client.createAuthorizationURLWithPKCE(
      `${this.#baseUrl}/oauth2/authorize`,
      state,
      CodeChallengeMethod.S256,
      codeVerifier,
      ['identify', 'email'],
    );
    return { state, codeVerifier, url: url.toString() };
  }

  /** Exchanges the code and reads who signed in. Refusals and outages become the callback page's messages. */
  async user(code: string, codeVerifier: string): Promise<DiscordUser> {
    let accessToken: string;
    try {
      const tokens = await withTimeout(
        this.#client.validateAuthorizationCode(`${this.#baseUrl}/api/oauth2/token`, code, codeVerifier),
      );
      accessToken = tokens.accessToken();
    } catch (error) {
      // invalid_grant: the code expired, was used already, or does not match the verifier.
      if (error instanceof OAuth2RequestError)
        throw new AppError('BAD_REQUEST', discordMessages.codeRejected);
      // A network failure (arctic's ArcticFetchError), no answer in time, or any other answer (a 5xx page,
      // a body that is not OAuth's): Discord is not working right now.
      throw unreachable();
    }
    let response: Response;
    try {
      response = await withTimeout(
        fetch(`${this.#baseUrl}/api/v10/users/@me`, {
          headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        }),
      );
    } catch {
      throw unreachable();
    }
    if (!response.ok) throw unreachable();
    const parsed = discordUserSchema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) throw unreachable();
    return parsed.data;
  }
}

async function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('Discord did not answer in time')), DISCORD_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
