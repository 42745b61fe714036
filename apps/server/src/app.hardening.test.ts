import { type AddressInfo, connect } from 'node:net';
import { errorEnvelopeSchema, fieldMessages, MAX_JSON_BODY_DEPTH } from '@haversack/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  createCharacter,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from './test/factories.js';
import { buildTestApp, type TestContext } from './test/helper.js';

/** issue 9 item 5: bad input answers a 4xx in the envelope, never a 500 or Fastify's own body. */
let ctx: TestContext;
let user: SignedInUser;
let baseUrl: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  user = await createUser(ctx);
  await upgrade(ctx, user, 'tier_3');
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => ctx.close());

function envelope(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  const body = errorEnvelopeSchema.parse(response.json());
  expect(body.error).toMatchObject({ code, status });
  return body.error;
}

/** The 422 answer names the field and says why. */
function refusedField(response: LightMyRequestResponse, field: string, message?: string) {
  const error = envelope(response, 422, 'VALIDATION_ERROR');
  expect(error.details).toEqual(
    expect.arrayContaining([expect.objectContaining({ field, ...(message ? { message } : {}) })]),
  );
}

const jsonPost = (url: string, payload: string, auth = true) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v1${url}`,
    payload,
    headers: { 'content-type': 'application/json', ...(auth ? user.auth : {}) },
  });
const get = (url: string) => ctx.app.inject({ url: `/api/v1${url}`, headers: user.auth });

describe('text that the database cannot store', () => {
  it('refuses the NUL character in the login form', async () => {
    refusedField(
      await jsonPost('/auth/login', '{"email":"a\\u0000b","password":"x"}', false),
      'email',
      fieldMessages.unsafeText,
    );
  });

  it('refuses the NUL character in a query', async () => {
    refusedField(await get('/search/items?search=%00'), 'search', fieldMessages.unsafeText);
    refusedField(await get('/parties?search=%00'), 'search', fieldMessages.unsafeText);
    refusedField(await get('/characters?race=a%00b'), 'race', fieldMessages.unsafeText);
  });

  it('refuses control characters and direction overrides in names, which spoof what others read', async () => {
    refusedField(
      await jsonPost('/item_templates', '{"item_template":{"name":"a\\u0007b"}}'),
      'item_template.name',
      fieldMessages.unsafeText,
    );
    refusedField(
      await jsonPost('/item_templates', '{"item_template":{"name":"RTL \\u202Eevil"}}'),
      'item_template.name',
      fieldMessages.unsafeText,
    );
    // A name of zero-width spaces only is no name.
    refusedField(
      await jsonPost('/item_templates', '{"item_template":{"name":"\\u200B\\u200B"}}'),
      'item_template.name',
      'Template name is required',
    );
    // A description keeps its line breaks and tabs.
    const described = await jsonPost(
      '/item_templates',
      '{"item_template":{"name":"Map","description":"North\\r\\n\\tSouth"}}',
    );
    expect(described.statusCode, described.body).toBe(201);
  });

  it('refuses C1 controls, and names of nothing visible, for characters, parties and API tokens', async () => {
    // U+009B is the 8-bit escape that starts a terminal command; U+0085 (NEL) a line break to some readers.
    refusedField(
      await jsonPost('/characters', '{"character":{"name":"Pip\\u009B31m"}}'),
      'character.name',
      fieldMessages.unsafeText,
    );
    refusedField(
      await jsonPost('/parties', '{"party":{"name":"Next\\u0085line"}}'),
      'party.name',
      fieldMessages.unsafeText,
    );
    refusedField(
      await jsonPost('/item_templates', '{"item_template":{"name":"Map","description":"a\\u0080b"}}'),
      'item_template.description',
      fieldMessages.unsafeText,
    );
    for (const blank of ['\\u061C', '\\uDB40\\uDC20\\uDB40\\uDC7F', '\\uFFF9', '\\uFFFC', '\\uD834\\uDD73']) {
      const payload = (kind: string, name: string) => `{"${kind}":{"name":"${name}"}}`;
      for (const [url, kind, name] of [
        ['/characters', 'character', blank],
        ['/parties', 'party', blank.repeat(3)],
        ['/users/me/api_tokens', 'api_token', blank],
      ] as const) {
        const response = await jsonPost(url, payload(kind, name));
        expect(response.statusCode, `${url} ${name}: ${response.body}`).toBe(422);
      }
    }
    // A flag spelt with tag characters is a name like any other.
    const flag = await jsonPost(
      '/characters',
      '{"character":{"name":"Scot \\uD83C\\uDFF4\\uDB40\\uDC67\\uDB40\\uDC62\\uDB40\\uDC73\\uDB40\\uDC63\\uDB40\\uDC74\\uDB40\\uDC7F"}}',
    );
    expect(flag.statusCode, flag.body).toBe(201);
  });

  it('refuses lone surrogates in free JSON fields and in any key', async () => {
    refusedField(
      await jsonPost('/item_templates', '{"item_template":{"name":"x","metadata":{"rarity":"\\ud800"}}}'),
      'item_template.metadata.rarity',
      fieldMessages.unsafeText,
    );
    refusedField(
      await jsonPost(
        '/item_templates',
        '{"item_template":{"name":"x","metadata":{"lore":["ok","\\udc00"]}}}',
      ),
      'item_template.metadata.lore.1',
      fieldMessages.unsafeText,
    );
    refusedField(
      await jsonPost('/item_templates', '{"item_template":{"name":"x","metadata":{"\\ud800":1}}}'),
      'item_template.metadata.\uFFFD',
      fieldMessages.unsafeText,
    );
    // A surrogate pair (an emoji) is text like any other.
    const dragon = await jsonPost(
      '/item_templates',
      '{"item_template":{"name":"Egg \\ud83d\\udc09","metadata":{"rarity":"\\ud83d\\udc09"}}}',
    );
    expect(dragon.statusCode, dragon.body).toBe(201);
  });
});

describe('ids that are not uuids', () => {
  it('refuses them in queries and bodies with a 422 naming the field', async () => {
    refusedField(await get('/parties/preview?id=abc'), 'id');
    refusedField(await get('/characters?party_id=abc'), 'party_id');
    refusedField(
      await jsonPost('/characters', '{"character":{"name":"Pip","party_id":"abc"}}'),
      'character.party_id',
    );
    const party = await createParty(ctx, user);
    const patronage = await jsonPost(
      '/patronages',
      JSON.stringify({ beneficiary_id: 'abc', party_id: party.id }),
    );
    refusedField(patronage, 'beneficiary_id');
    refusedField(
      await jsonPost('/patronages', JSON.stringify({ beneficiary_id: user.user.id, party_id: 'x' })),
      'party_id',
    );
    const character = await createCharacter(ctx, user);
    refusedField(
      await jsonPost(
        `/characters/not-a-uuid/transfer_item`,
        JSON.stringify({
          item_instance_id: character.id,
          from_container_id: character.primary_container_id,
          to_container_id: character.primary_container_id,
        }),
      ),
      'id',
    );
  });
});

describe('numbers of the wrong type', () => {
  it('refuses booleans, arrays and numbers spelled as hex, exponent or padded text, and changes nothing', async () => {
    const character = await createCharacter(ctx, user);
    const template = await createTemplate(ctx, { name: 'Whetstone', stackSize: 0 });
    const wrong = [true, [5], '0x10', '1e3', ' 7 ', ''];
    for (const quantity of wrong) {
      refusedField(
        await jsonPost(
          '/item_instances',
          JSON.stringify({
            item_template_id: template.id,
            container_id: character.primary_container_id,
            quantity,
          }),
        ),
        'quantity',
      );
      refusedField(
        await jsonPost(
          '/item_templates',
          JSON.stringify({ item_template: { name: 'Odd', base_value: quantity } }),
        ),
        'item_template.base_value',
      );
      refusedField(
        await jsonPost('/characters', JSON.stringify({ character: { name: 'Odd', level: quantity } })),
        'character.level',
      );
    }
    refusedField(await get('/parties?page=0x2'), 'page');
    refusedField(await get('/characters?min_level=1e1'), 'min_level');
    const items = await get(`/containers/${character.primary_container_id}/items`);
    expect(items.json().data).toEqual([]);
    const characters = await get('/characters?per_page=100');
    expect(characters.json().data.map((c: { name: string }) => c.name)).not.toContain('Odd');
    // The digits a form field holds are still taken.
    const created = await jsonPost(
      '/item_instances',
      JSON.stringify({
        item_template_id: template.id,
        container_id: character.primary_container_id,
        quantity: '3',
      }),
    );
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.map((stack: { quantity: number }) => stack.quantity)).toEqual([3]);
  });
});

describe('deep and large JSON', () => {
  const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const metadata = (value: string) => `{"item_template":{"name":"Deep","metadata":{"a":${value}}}}`;

  it('refuses metadata nested 20,000 or 3,000 levels deep before parsing it', async () => {
    for (const depth of [20_000, 3_000]) {
      const error = envelope(
        await jsonPost('/item_templates', metadata(`${'['.repeat(depth)}${']'.repeat(depth)}`)),
        400,
        'BAD_REQUEST',
      );
      expect(error.message).toContain(`at most ${MAX_JSON_BODY_DEPTH} levels`);
    }
  });

  it('caps the depth of a JSON field at 16 levels, naming where it goes too deep', async () => {
    // metadata is level 1, so `a` may hold 15 more. Counted from the body, `item_template` is one more
    // object: 17 nested objects in the request, 16 in the field (docs/decisions.md "JSON depth and size").
    const accepted = await jsonPost('/item_templates', metadata(nested(15)));
    expect(accepted.statusCode, accepted.body).toBe(201);
    const refused = await jsonPost('/item_templates', metadata(nested(16)));
    refusedField(refused, `item_template.metadata${'.a'.repeat(16)}`, fieldMessages.tooDeep(16));
  });

  it('keeps the size cap of metadata', async () => {
    refusedField(
      await jsonPost('/item_templates', metadata(JSON.stringify('x'.repeat(10_001)))),
      'item_template.metadata',
      'Metadata is too large',
    );
  });
});

describe('signed access tokens naming no uuid', () => {
  it('answers 401 on the API and unauthorized on /cable', async () => {
    for (const claims of [
      { userId: user.user.id, sessionId: 'not-a-uuid' },
      { userId: "1' OR '1'='1", sessionId: '3f2b8c1e-9a4d-4e7f-8b6a-1c2d3e4f5a6b' },
    ]) {
      const { token } = await ctx.app.services.accessTokens.issue(claims);
      envelope(
        await ctx.app.inject({ url: '/api/v1/auth/me', headers: { authorization: `Bearer ${token}` } }),
        401,
        'INVALID_TOKEN',
      );
      const socket = new WebSocket(`ws://${baseUrl}/cable?token=${token}`, ['actioncable-v1-json']);
      const frame = await new Promise<unknown>((resolve) =>
        socket.on('message', (data: Buffer) => resolve(JSON.parse(data.toString()))),
      );
      expect(frame).toMatchObject({ type: 'disconnect', reason: 'unauthorized' });
      socket.close();
    }
  });
});

describe('framework errors', () => {
  it('answers a path parameter over 100 characters with 414 in the envelope', async () => {
    const response = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/v1/characters/${'a'.repeat(101)}`,
      headers: user.auth,
      payload: { character: { name: 'Pip' } },
    });
    const error = envelope(response, 414, 'BAD_REQUEST');
    expect(error.message).toMatch(/too long/);
    expect(response.headers['x-request-id']).toBeTruthy();
    // A GET may fall through to the web app's wildcard route, whose miss is the API's 404.
    const read = await get(`/characters/${'a'.repeat(101)}`);
    envelope(read, read.statusCode, read.statusCode === 414 ? 'BAD_REQUEST' : 'RESOURCE_NOT_FOUND');
  });

  it('answers a malformed percent-encoding in the path with 400 in the envelope', async () => {
    envelope(await get('/characters/%ZZ'), 400, 'BAD_REQUEST');
    envelope(await get('/characters/%ED%A0%80'), 400, 'BAD_REQUEST');
  });

  it('answers what the HTTP parser refuses in the envelope too', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const [host, port] = baseUrl.split(':');
      const socket = connect(Number(port), host, () =>
        socket.write('POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}'),
      );
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString();
      });
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
    expect(errorEnvelopeSchema.parse(JSON.parse(body)).error).toMatchObject({
      code: 'BAD_REQUEST',
      status: 400,
    });
  });

  it('answers unknown methods, bad lengths and strange bodies in the envelope', async () => {
    envelope(
      await ctx.app.inject({ method: 'OPTIONS', url: '/api/v1/characters' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    envelope(
      await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: '{"__proto__":{"admin":true}}',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'BAD_REQUEST',
    );
    envelope(
      await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: '',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'BAD_REQUEST',
    );
  });
});
