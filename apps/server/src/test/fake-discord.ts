import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface FakeDiscordUser {
  id: string;
  username: string;
  global_name?: string | null;
  email?: string | null;
  verified?: boolean;
}

interface IssuedCode {
  user: FakeDiscordUser;
  codeChallenge: string;
  redirectUri: string;
}

export interface FakeCommandsCall {
  applicationId: string;
  authorization: string | undefined;
  body: unknown;
}

/**
 * A local stand-in for the parts of Discord's API Haversack calls (no network here): the OAuth token
 * endpoint with PKCE, GET /users/@me, and PUT /applications/{id}/commands. Codes are issued by the test
 * (as if the person had consented on Discord) for the challenge of the authorize URL.
 */
export class FakeDiscord {
  readonly clientId = 'fake-client-id';
  readonly clientSecret = 'fake-client-secret';
  readonly botToken = 'fake-bot-token';
  readonly commandCalls: FakeCommandsCall[] = [];
  readonly #codes = new Map<string, IssuedCode>();
  readonly #tokens = new Map<string, FakeDiscordUser>();
  #server: Server | undefined;
  baseUrl = '';

  /**
   * Who consents when a browser opens the authorize page (end-to-end tests): the stand-in sends the
   * browser straight back to the redirect URI with a code and the state, or with error=access_denied.
   */
  browserConsent: FakeDiscordUser | 'deny' | undefined;

  async start(port = 0): Promise<this> {
    this.#server = createServer((request, response) => {
      void this.#handle(request, response).catch(() => {
        response.statusCode = 500;
        response.end();
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(port, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${portOf(this.#server)}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }

  /** The code Discord would send back after `user` consents to the given authorize URL. */
  consent(authorizationUrl: string, user: FakeDiscordUser): { code: string; state: string } {
    const url = new URL(authorizationUrl);
    const code = randomBytes(12).toString('hex');
    this.#codes.set(code, {
      user,
      codeChallenge: url.searchParams.get('code_challenge') ?? '',
      redirectUri: url.searchParams.get('redirect_uri') ?? '',
    });
    return { code, state: url.searchParams.get('state') ?? '' };
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.baseUrl);
    const body = await readBody(request);
    const send = (status: number, payload: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(payload));
    };
    if (request.method === 'GET' && url.pathname === '/oauth2/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      const consent = this.browserConsent;
      if (!consent || consent === 'deny') {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set(
          'error_description',
          'The resource owner or authorization server denied the request',
        );
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
      } else {
        const { code, state } = this.consent(url.toString(), consent);
        back.searchParams.set('code', code);
        back.searchParams.set('state', state);
      }
      response.writeHead(302, { location: back.toString() });
      response.end();
      return;
    }
    if (request.method === 'POST' && url.pathname === '/api/oauth2/token') {
      const form = new URLSearchParams(body);
      const expected = `Basic ${Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64')}`;
      if (request.headers.authorization !== expected) return send(401, { error: 'invalid_client' });
      const issued = this.#codes.get(form.get('code') ?? '');
      // Codes are single use, as on Discord.
      this.#codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (
        form.get('grant_type') !== 'authorization_code' ||
        !issued ||
        issued.codeChallenge !== challenge ||
        issued.redirectUri !== form.get('redirect_uri')
      ) {
        return send(400, { error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
      }
      const accessToken = randomBytes(16).toString('hex');
      this.#tokens.set(accessToken, issued.user);
      return send(200, {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: 604800,
        refresh_token: randomBytes(16).toString('hex'),
        scope: 'identify email',
      });
    }
    if (request.method === 'GET' && url.pathname === '/api/v10/users/@me') {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      const user = token ? this.#tokens.get(token) : undefined;
      if (!user) return send(401, { message: '401: Unauthorized', code: 0 });
      return send(200, { global_name: null, ...user });
    }
    const commands = /^\/api\/v10\/applications\/([^/]+)\/commands$/.exec(url.pathname);
    if (request.method === 'PUT' && commands?.[1]) {
      const parsed: unknown = JSON.parse(body);
      this.commandCalls.push({
        applicationId: decodeURIComponent(commands[1]),
        authorization: request.headers.authorization,
        body: parsed,
      });
      if (request.headers.authorization !== `Bot ${this.botToken}`) {
        return send(401, { message: '401: Unauthorized', code: 0 });
      }
      const list = Array.isArray(parsed) ? parsed : [];
      return send(
        200,
        list.map((command, index) => ({ id: String(1000 + index), application_id: commands[1], ...command })),
      );
    }
    send(404, { message: '404: Not Found', code: 0 });
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** A base URL where nothing answers: Discord unreachable. */
export async function closedBaseUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = portOf(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

function portOf(server: Server): number {
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the stand-in is not listening on a port');
  return address.port;
}
