import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { Writable } from 'node:stream';
import { accountSuspendedMessage, inventoryMessages } from '@haversack/contracts';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../../db/schema/accounts.js';
import { discordAnsweredInteractions, discordChannelBindings } from '../../db/schema/discord.js';
import { transactions } from '../../db/schema/inventory.js';
import { currentChangeSource } from '../../lib/change-source.js';
import {
  createCharacter,
  createLootTemplate,
  createMember,
  createParty,
  createTemplate,
  createUser,
  deployLoot,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { discordRepository } from './discord.repository.js';

interface InteractionAnswer {
  type: number;
  data: {
    content: string;
    flags?: number;
    embeds?: { title: string; description: string; url: string }[];
    allowed_mentions: { parse: string[] };
  };
}

let ctx: TestContext;
let privateKey: KeyObject;
let publicKeyHex: string;

beforeAll(async () => {
  const pair = generateKeyPairSync('ed25519');
  privateKey = pair.privateKey;
  // Discord shows the public key as the hex of its 32 raw bytes: the tail of the SPKI encoding.
  publicKeyHex = pair.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
  ctx = await buildTestApp({
    env: {
      DISCORD_PUBLIC_KEY: publicKeyHex,
      // Sign-in too, as the commands need: players link their Discord accounts through it.
      DISCORD_CLIENT_ID: 'client-1',
      DISCORD_CLIENT_SECRET: 'client-secret',
    },
  });
});
afterAll(async () => ctx.close());

const GUILD = '800000000000000001';
let nextChannel = 900_000;
let nextDiscordId = 700_000;
let nextInteraction = 500_000;
/** Discord gives every interaction an id of its own; the endpoint answers each id once. */
const newInteractionId = () => {
  nextInteraction += 1;
  return String(nextInteraction);
};
const newChannel = () => {
  nextChannel += 1;
  return String(nextChannel);
};

function signedRequest(
  rawBody: string,
  options: { key?: KeyObject; timestamp?: string; app?: TestContext } = {},
) {
  const timestamp = options.timestamp ?? String(Math.floor(Date.now() / 1000));
  const signature = sign(null, Buffer.from(timestamp + rawBody), options.key ?? privateKey).toString('hex');
  return (options.app ?? ctx).app.inject({
    method: 'POST',
    url: '/api/v1/discord/interactions',
    headers: {
      'content-type': 'application/json',
      'x-signature-ed25519': signature,
      'x-signature-timestamp': timestamp,
    },
    payload: rawBody,
  });
}

/** Links a new Discord id to the user, as the OAuth flow would (its own tests cover the flow). */
async function linkDiscord(user: SignedInUser): Promise<string> {
  nextDiscordId += 1;
  const discordUserId = String(nextDiscordId);
  await discordRepository.insertAccount(ctx.database.db, {
    userId: user.user.id,
    discordUserId,
    discordUsername: user.user.username,
  });
  return discordUserId;
}

type Option = { name: string; type: number; value: string | number };

async function command(
  discordUserId: string,
  name: string,
  options: Option[] = [],
  where: { channelId?: string; guildId?: string | null; permissions?: string } = {},
): Promise<InteractionAnswer> {
  const guildId = where.guildId === undefined ? GUILD : where.guildId;
  const payload = {
    id: newInteractionId(),
    application_id: '2',
    type: 2,
    token: 'interaction-token',
    version: 1,
    data: { id: '3', name, type: 1, options },
    channel_id: where.channelId ?? newChannel(),
    ...(guildId
      ? {
          guild_id: guildId,
          member: {
            user: { id: discordUserId, username: 'someone' },
            roles: [],
            // Manage Channels, unless the test says otherwise.
            permissions: where.permissions ?? '16',
          },
        }
      : { user: { id: discordUserId, username: 'someone' } }),
  };
  const response = await signedRequest(JSON.stringify(payload));
  expect(response.statusCode).toBe(200);
  return response.json() as InteractionAnswer;
}

const text = (value: string): Option => ({ name: '', type: 3, value });
const bind = (id: string, party: string, channelId: string) =>
  command(id, 'bind', [{ ...text(party), name: 'party' }], { channelId });
const give = (
  id: string,
  channelId: string,
  item: string,
  quantity: number,
  character: string,
  from?: string,
) =>
  command(
    id,
    'give',
    [
      { name: 'item', type: 3, value: item },
      { name: 'quantity', type: 4, value: quantity },
      { name: 'character', type: 3, value: character },
      ...(from === undefined ? [] : [{ name: 'from', type: 3, value: from }]),
    ],
    { channelId },
  );

/** A party whose channel is bound, with Pip (5 ropes and an anvil) and Brom (small pack), all linked. */
async function boundTable() {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm, { name: `Table ${nextChannel}` });
  const pipPlayer = await createMember(ctx, party, 'player');
  const bromPlayer = await createMember(ctx, party, 'player');
  const pip = await createCharacter(ctx, pipPlayer, { name: 'Pip', partyId: party.id, maxWeight: null });
  const brom = await createCharacter(ctx, bromPlayer, { name: 'Brom', partyId: party.id, maxWeight: 20 });
  const rope = await createTemplate(ctx, { name: 'Rope', stackSize: 0, weight: 1 });
  const anvil = await createTemplate(ctx, { name: 'Anvil', weight: 100 });
  for (const [template, quantity] of [
    [rope, 5],
    [anvil, 1],
  ] as const) {
    const added = await callApi(ctx, 'POST', '/item_instances', pipPlayer, {
      item_template_id: template.id,
      container_id: pip.primary_container_id,
      quantity,
    });
    expect(added.statusCode).toBe(201);
  }
  const ids = {
    gm: await linkDiscord(gm),
    pip: await linkDiscord(pipPlayer),
    brom: await linkDiscord(bromPlayer),
  };
  const channelId = newChannel();
  const bound = await bind(ids.gm, String(party.join_code), channelId);
  expect(bound.data.content).toContain('now bound to');
  return { gm, party, pipPlayer, bromPlayer, pip, brom, ids, channelId };
}

describe('the signature of Discord interactions', () => {
  it('answers a signed PING with PONG', async () => {
    const response = await signedRequest(
      JSON.stringify({ type: 1, id: newInteractionId(), application_id: '2', token: 't', version: 1 }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ type: 1 });
  });

  it('refuses a request signed with another key, a tampered body, no signature or an old timestamp with 401', async () => {
    const ping = JSON.stringify({ type: 1 });
    const otherKey = generateKeyPairSync('ed25519').privateKey;
    expect((await signedRequest(ping, { key: otherKey })).statusCode).toBe(401);

    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = sign(null, Buffer.from(timestamp + ping), privateKey).toString('hex');
    const tampered = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/discord/interactions',
      headers: {
        'content-type': 'application/json',
        'x-signature-ed25519': signature,
        'x-signature-timestamp': timestamp,
      },
      payload: JSON.stringify({ type: 2 }),
    });
    expect(tampered.statusCode).toBe(401);
    expect(tampered.json()).toMatchObject({ status: 'error', error: { code: 'UNAUTHORIZED' } });

    const unsigned = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/discord/interactions',
      headers: { 'content-type': 'application/json' },
      payload: ping,
    });
    expect(unsigned.statusCode).toBe(401);

    const old = String(Math.floor(Date.now() / 1000) - 3600);
    expect((await signedRequest(ping, { timestamp: old })).statusCode).toBe(401);
  });

  it('answers each interaction once: the same signed bytes sent again move nothing', async () => {
    const { ids, channelId, pipPlayer, pip } = await boundTable();
    const interactionId = newInteractionId();
    const payload = JSON.stringify({
      id: interactionId,
      application_id: '2',
      type: 2,
      token: 'interaction-token',
      version: 1,
      data: {
        id: '3',
        name: 'give',
        type: 1,
        options: [
          { name: 'item', type: 3, value: 'Rope' },
          { name: 'quantity', type: 4, value: 1 },
          { name: 'character', type: 3, value: 'Brom' },
        ],
      },
      channel_id: channelId,
      guild_id: GUILD,
      member: { user: { id: ids.pip, username: 'someone' }, roles: [] },
    });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const first = await signedRequest(payload, { timestamp });
    expect(first.statusCode).toBe(200);
    const replayed = await signedRequest(payload, { timestamp });
    expect(replayed.statusCode).toBe(409);
    expect(replayed.json()).toMatchObject({ error: { message: 'This interaction was already answered.' } });
    // Remembered in the database, not in this process's memory: a restarted server, or another process on
    // the same database, refuses the replay too. Forgotten only once its signature can no longer pass.
    expect(await discordRepository.claimInteraction(ctx.database.db, interactionId, new Date(0))).toBe(false);
    const [answered] = await ctx.database.db
      .select()
      .from(discordAnsweredInteractions)
      .where(eq(discordAnsweredInteractions.interactionId, interactionId));
    expect(answered).toBeDefined();
    const muchLater = new Date(Date.now() + 11 * 60_000);
    expect(await discordRepository.claimInteraction(ctx.database.db, newInteractionId(), muchLater)).toBe(
      true,
    );
    const [forgotten] = await ctx.database.db
      .select()
      .from(discordAnsweredInteractions)
      .where(eq(discordAnsweredInteractions.interactionId, interactionId));
    expect(forgotten).toBeUndefined();
    const items = await callApi(ctx, 'GET', `/containers/${pip.primary_container_id}/items`, pipPlayer);
    const ropes = (items.json() as { data: { name: string; quantity: number }[] }).data.find(
      (item) => item.name === 'Rope',
    );
    expect(ropes?.quantity).toBe(4);
  });

  it('documents its signature headers and its answers in the API document', async () => {
    const document = (await ctx.app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<string, { post: { parameters?: { name: string; in: string }[]; description?: string } }>;
    };
    const operation = document.paths['/api/v1/discord/interactions']?.post;
    expect(operation?.parameters?.filter((p) => p.in === 'header').map((p) => p.name)).toEqual([
      'x-signature-ed25519',
      'x-signature-timestamp',
    ]);
    expect(operation?.description).toContain('409: an interaction id already answered');
  });

  it('is 404 on a server without DISCORD_PUBLIC_KEY', async () => {
    const bare = await buildTestApp();
    try {
      const response = await bare.app.inject({
        method: 'POST',
        url: '/api/v1/discord/interactions',
        headers: { 'content-type': 'application/json' },
        payload: '{"type":1}',
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await bare.close();
    }
  });
});

describe('/bind', () => {
  it('binds the channel for the GM of the party, by join code or by name', async () => {
    const { party, ids, channelId } = await boundTable();
    const [row] = await ctx.database.db
      .select()
      .from(discordChannelBindings)
      .where(eq(discordChannelBindings.channelId, channelId));
    expect(row).toMatchObject({ partyId: party.id, guildId: GUILD });

    // A code typed as the join form takes it, lower case with a dash, binds as well.
    const code = String(party.join_code);
    const dashed = await bind(ids.gm, `${code.slice(0, 4)}-${code.slice(4)}`.toLowerCase(), newChannel());
    expect(dashed.data.content).toContain('now bound to');

    const byName = newChannel();
    const answer = await bind(ids.gm, party.name.toUpperCase(), byName);
    expect(answer.data.content).toContain(party.name);
    expect(answer.data.flags).toBeUndefined();
  });

  it('refuses a member who is not the GM, an unknown party, a direct message and an unlinked user', async () => {
    const { party, ids, channelId } = await boundTable();
    const notGm = await bind(ids.pip, String(party.join_code), newChannel());
    expect(notGm.data.content).toBe(`Only the GM of ${party.name} can bind a channel to it.`);
    expect(notGm.data.flags).toBe(64);

    const unknown = await bind(ids.gm, 'no-such-party', newChannel());
    expect(unknown.data.content).toContain('You have no party called');

    const direct = await command(ids.gm, 'bind', [{ name: 'party', type: 3, value: party.name }], {
      guildId: null,
    });
    expect(direct.data.content).toContain('not in a direct message');

    const stranger = await command('1', 'bind', [{ name: 'party', type: 3, value: party.name }], {
      channelId,
    });
    expect(stranger.data.content).toContain('Link your Discord account to Haversack first');
    expect(stranger.data.flags).toBe(64);
  });

  it('refuses every command of a suspended user', async () => {
    const { ids, channelId } = await boundTable();
    expect((await command(ids.pip, 'inventory', [], { channelId })).data.content).not.toBe(
      accountSuspendedMessage,
    );
    const pip = await discordRepository.userOfDiscordId(ctx.database.db, ids.pip);
    await ctx.database.db
      .update(users)
      .set({ suspendedAt: new Date(), suspendedReason: 'test' })
      .where(eq(users.id, String(pip?.user.id)));
    const refused = await command(ids.pip, 'inventory', [], { channelId });
    expect(refused.data.content).toBe(accountSuspendedMessage);
    expect(refused.data.flags).toBe(64);
  });

  it('binds only for a GM who may arrange the channels of that server', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_1');
    const party = await createParty(ctx, gm, { name: `Perms ${nextChannel}` });
    const id = await linkDiscord(gm);
    const channelId = newChannel();
    const options = [{ ...text(String(party.join_code)), name: 'party' }];
    for (const permissions of ['0', '2048', 'not-bits']) {
      const refused = await command(id, 'bind', options, { channelId, permissions });
      expect(refused.data).toMatchObject({
        flags: 64,
        content: 'You need the Manage Channels permission in this server to bind a channel.',
      });
    }
    // Administrator holds every permission.
    const bound = await command(id, 'bind', options, { channelId, permissions: '8' });
    expect(bound.data.content).toContain('now bound to');
  });

  it("does not let another party's GM take over a bound channel", async () => {
    const { channelId } = await boundTable();
    const rival = await createUser(ctx);
    const rivalParty = await createParty(ctx, rival);
    const answer = await bind(await linkDiscord(rival), String(rivalParty.join_code), channelId);
    expect(answer.data.content).toContain('bound to another party');
  });
});

describe('/inventory', () => {
  it("shows my character's items as an embed only I see", async () => {
    const { ids, channelId, pip } = await boundTable();
    const answer = await command(ids.pip, 'inventory', [], { channelId });
    expect(answer.type).toBe(4);
    expect(answer.data.flags).toBe(64);
    expect(answer.data.embeds).toHaveLength(1);
    expect(answer.data.embeds?.[0]).toMatchObject({
      title: 'Pip',
      url: `http://haversack.test/characters/${pip.id}`,
    });
    expect(answer.data.embeds?.[0]?.description).toContain('Rope × 5');
    expect(answer.data.embeds?.[0]?.description).toContain('Anvil × 1');
  });

  it('keeps a heavy inventory within what Discord accepts in one message', async () => {
    const { ids, channelId, party, pipPlayer } = await boundTable();
    // Pip and two more characters of the same player, each with 20 stacks of long-named things.
    const more = [
      await createCharacter(ctx, pipPlayer, {
        name: 'Pip II',
        partyId: party.id,
        maxWeight: null,
        maxSlots: null,
      }),
      await createCharacter(ctx, pipPlayer, {
        name: 'Pip III',
        partyId: party.id,
        maxWeight: null,
        maxSlots: null,
      }),
    ];
    for (const character of more) {
      for (let n = 0; n < 20; n += 1) {
        const template = await createTemplate(ctx, { name: `${'Very long name of a thing '.repeat(7)}${n}` });
        const added = await callApi(ctx, 'POST', '/item_instances', pipPlayer, {
          item_template_id: template.id,
          container_id: character.primary_container_id,
          quantity: 1,
        });
        expect(added.statusCode).toBe(201);
      }
    }
    const answer = await command(ids.pip, 'inventory', [], { channelId });
    const embeds = answer.data.embeds ?? [];
    expect(embeds.map((embed) => embed.title)).toEqual(['Pip', 'Pip II', 'Pip III']);
    // Discord refuses a message whose embeds hold more than 6,000 characters in all.
    const total = embeds.reduce((sum, embed) => sum + embed.title.length + embed.description.length, 0);
    expect(total).toBeLessThanOrEqual(6000);
    expect(embeds[0]?.description).toContain('Rope × 5');
    expect(embeds[1]?.description).toMatch(/…and \d+ more$/);
  });

  it('says so in an unbound channel, to a GM without a character, and to someone outside the party', async () => {
    const { ids, channelId } = await boundTable();
    const unbound = await command(ids.pip, 'inventory', [], { channelId: newChannel() });
    expect(unbound.data.content).toContain('not bound to a party');
    const gm = await command(ids.gm, 'inventory', [], { channelId });
    expect(gm.data.content).toContain('You have no character in');
    const outsider = await command(await linkDiscord(await createUser(ctx)), 'inventory', [], { channelId });
    expect(outsider.data.content).toBe('You are not a member of the party bound to this channel.');
  });
});

describe('/give', () => {
  it('gives through the same rules as the web and writes ledger rows marked as from Discord', async () => {
    const { ids, channelId, pipPlayer, bromPlayer, brom } = await boundTable();
    const answer = await give(ids.pip, channelId, 'rope', 2, 'brom');
    expect(answer.data.content).toBe('**Pip** gave 2 × Rope to **Brom**.');

    const rows = await ctx.database.db
      .select()
      .from(transactions)
      .where(
        and(
          eq(transactions.actorId, pipPlayer.user.id),
          eq(transactions.transactionType, 'character_to_character_transfer'),
        ),
      );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.source === 'discord')).toBe(true);

    const items = await callApi(ctx, 'GET', `/containers/${brom.primary_container_id}/items`, bromPlayer);
    expect((items.json() as { data: { name: string; quantity: number }[] }).data).toEqual([
      expect.objectContaining({ name: 'Rope', quantity: 2 }),
    ]);
  });

  it('tells the party in real time that the change came from Discord', async () => {
    const { ids, channelId } = await boundTable();
    const events = ctx.app.services.events;
    const publish = events.publish.bind(events);
    const sources: string[] = [];
    // The event bus stamps each event with the source current when it publishes (event-bus.ts).
    const spy = vi.spyOn(events, 'publish').mockImplementation((batch) => {
      sources.push(currentChangeSource());
      publish(batch);
    });
    try {
      expect((await give(ids.pip, channelId, 'Rope', 1, 'Brom')).data.content).toContain('gave 1 × Rope');
    } finally {
      spy.mockRestore();
    }
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.every((source) => source === 'discord')).toBe(true);
  });

  it('gives each rope once when the same give arrives three times at once', async () => {
    const { ids, channelId, pipPlayer, bromPlayer, pip, brom } = await boundTable();
    const answers = await Promise.all([1, 2, 3].map(() => give(ids.pip, channelId, 'Rope', 2, 'Brom')));
    const given = answers.filter((answer) => answer.data.content.includes('gave 2 × Rope'));
    expect(given).toHaveLength(2);
    expect(answers.filter((answer) => answer.data.flags === 64)).toHaveLength(1);
    const ropes = async (user: SignedInUser, containerId: string | null) => {
      const items = await callApi(ctx, 'GET', `/containers/${containerId}/items?per_page=100`, user);
      return (items.json() as { data: { name: string; quantity: number }[] }).data
        .filter((item) => item.name === 'Rope')
        .reduce((sum, item) => sum + item.quantity, 0);
    };
    expect(await ropes(pipPlayer, pip.primary_container_id)).toBe(1);
    expect(await ropes(bromPlayer, brom.primary_container_id)).toBe(4);
  });

  it('refuses what does not fit, as the web does, and changes nothing', async () => {
    const { ids, channelId, pipPlayer, brom } = await boundTable();
    const before = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.actorId, pipPlayer.user.id));
    const answer = await give(ids.pip, channelId, 'Anvil', 1, 'Brom');
    expect(answer.data.flags).toBe(64);
    expect(answer.data.content).toBe(inventoryMessages.weightExceeded);
    const after = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.actorId, pipPlayer.user.id));
    expect(after).toHaveLength(before.length);
    expect(brom.id).toBeTruthy();
  });

  it('refuses too many, an unknown item, an unknown character and giving to myself', async () => {
    const { ids, channelId, pipPlayer, pip } = await boundTable();
    expect((await give(ids.pip, channelId, 'Rope', 9, 'Brom')).data.content).toBe(
      'Your characters have only 5 × Rope.',
    );
    // Thirty arrows in quivers of twenty: a give moves one stack's worth, and says so in those terms.
    const arrow = await createTemplate(ctx, { name: 'Arrow', stackSize: 20, weight: 0 });
    const quivers = await callApi(ctx, 'POST', '/item_instances', pipPlayer, {
      item_template_id: arrow.id,
      container_id: pip.primary_container_id,
      quantity: 30,
    });
    expect(quivers.statusCode, quivers.body).toBe(201);
    // Quivers hold twenty: merging them would be refused, so it is not offered.
    expect((await give(ids.pip, channelId, 'Arrow', 25, 'Brom')).data.content).toBe(
      'No single stack holds 25 × Arrow (the largest holds 20): give up to 20 at a time.',
    );
    expect((await give(ids.pip, channelId, 'Arrow', 20, 'Brom')).data.content).toContain('gave 20 × Arrow');
    expect((await give(ids.pip, channelId, 'Lute', 1, 'Brom')).data.content).toContain(
      'None of your characters',
    );
    expect((await give(ids.pip, channelId, 'Rope', 1, 'Nobody')).data.content).toContain(
      'No character called',
    );
    expect((await give(ids.pip, channelId, 'Rope', 1, 'Pip')).data.content).toBe(
      inventoryMessages.giveToOtherCharacter,
    );
    // Brom has no rope: nobody gives what another player's character holds.
    expect((await give(ids.brom, channelId, 'Rope', 1, 'Pip')).data.content).toContain(
      'None of your characters',
    );
  });
});

describe('/give between characters of the same player', () => {
  /** Pip's player also plays Zed, who holds 3 ropes: Pip holds 5, and comes first in the list of names. */
  async function twoOfMine() {
    const table = await boundTable();
    const zed = await createCharacter(ctx, table.pipPlayer, {
      name: 'Zed',
      partyId: table.party.id,
      maxWeight: null,
    });
    const rope = await callApi(
      ctx,
      'GET',
      `/containers/${table.pip.primary_container_id}/items`,
      table.pipPlayer,
    );
    const ropeTemplate = (rope.json() as { data: { name: string; item_template_id: string }[] }).data.find(
      (item) => item.name === 'Rope',
    )?.item_template_id;
    const added = await callApi(ctx, 'POST', '/item_instances', table.pipPlayer, {
      item_template_id: ropeTemplate,
      container_id: zed.primary_container_id,
      quantity: 3,
    });
    expect(added.statusCode, added.body).toBe(201);
    return { ...table, zed };
  }
  const ropesOf = async (user: SignedInUser, containerId: string | null) => {
    const items = await callApi(ctx, 'GET', `/containers/${containerId}/items?per_page=100`, user);
    return (items.json() as { data: { name: string; quantity: number }[] }).data
      .filter((item) => item.name === 'Rope')
      .map((item) => item.quantity);
  };

  it('gives to my first character from another of mine, never from the recipient itself', async () => {
    const { ids, channelId, pipPlayer, pip, zed } = await twoOfMine();
    // Pip holds enough, but Pip is the one receiving: Zed gives.
    expect((await give(ids.pip, channelId, 'Rope', 2, 'Pip')).data.content).toBe(
      '**Zed** gave 2 × Rope to **Pip**.',
    );
    expect(await ropesOf(pipPlayer, pip.primary_container_id)).toEqual([7]);
    expect(await ropesOf(pipPlayer, zed.primary_container_id)).toEqual([1]);
    // And the other way round.
    expect((await give(ids.pip, channelId, 'Rope', 4, 'Zed')).data.content).toBe(
      '**Pip** gave 4 × Rope to **Zed**.',
    );
  });

  it("counts only the giving characters' stacks when there are not enough, and advises only what works", async () => {
    const { ids, channelId, pipPlayer, zed, party } = await twoOfMine();
    // Pip's 5 ropes can never go to Pip: only Zed's 3 count.
    expect((await give(ids.pip, channelId, 'Rope', 4, 'Pip')).data.content).toBe(
      'Your characters other than Pip have only 3 × Rope.',
    );
    // Zed's rope in two stacks of one backpack (2 and 1): merging them there would make a stack of 3.
    const [stack] = (
      (await callApi(ctx, 'GET', `/containers/${zed.primary_container_id}/items`, pipPlayer)).json() as {
        data: { id: string }[];
      }
    ).data;
    const split = await callApi(ctx, 'POST', `/item_instances/${stack?.id}/split`, pipPlayer, {
      quantity: 1,
    });
    expect(split.statusCode, split.body).toBe(200);
    expect((await ropesOf(pipPlayer, zed.primary_container_id)).sort()).toEqual([1, 2]);
    expect((await give(ids.pip, channelId, 'Rope', 3, 'Pip')).data.content).toBe(
      "No single stack holds 3 × Rope (the largest holds 2): give up to 2 at a time, or merge Zed's stacks in the web app first.",
    );
    // To Brom, from Pip (5) and Zed (2 and 1): stacks of two characters cannot be merged.
    expect((await give(ids.pip, channelId, 'Rope', 6, 'Brom')).data.content).toBe(
      'No single stack holds 6 × Rope (the largest holds 5): give up to 5 at a time.',
    );
    // Nothing but the recipient's own.
    expect((await give(ids.pip, channelId, 'Anvil', 1, 'Pip')).data.content).toBe(
      `None of your characters in ${party.name} other than Pip has "Anvil".`,
    );
  });

  it('gives from the character named in from, and refuses one that is not mine or is the recipient', async () => {
    const { ids, channelId, pipPlayer, pip, zed, party } = await twoOfMine();
    expect((await give(ids.pip, channelId, 'Rope', 1, 'Brom', 'zed')).data.content).toBe(
      '**Zed** gave 1 × Rope to **Brom**.',
    );
    expect((await give(ids.pip, channelId, 'Rope', 1, 'Brom', 'Pip')).data.content).toBe(
      '**Pip** gave 1 × Rope to **Brom**.',
    );
    expect(await ropesOf(pipPlayer, pip.primary_container_id)).toEqual([4]);
    expect(await ropesOf(pipPlayer, zed.primary_container_id)).toEqual([2]);
    expect((await give(ids.pip, channelId, 'Rope', 3, 'Brom', 'Zed')).data.content).toBe(
      'Zed has only 2 × Rope.',
    );
    expect((await give(ids.pip, channelId, 'Anvil', 1, 'Brom', 'Zed')).data.content).toBe(
      'Zed has no "Anvil".',
    );
    expect((await give(ids.pip, channelId, 'Rope', 1, 'Zed', 'Zed')).data.content).toBe(
      inventoryMessages.giveToOtherCharacter,
    );
    expect((await give(ids.pip, channelId, 'Rope', 1, 'Zed', 'Brom')).data.content).toBe(
      `You have no character called "Brom" in ${party.name}.`,
    );
    expect(await ropesOf(pipPlayer, zed.primary_container_id)).toEqual([2]);
  });
});

describe('slash commands on a server without Discord sign-in', () => {
  it('says that linking is not available here instead of pointing at a button that is not there', async () => {
    const keyOnly = await buildTestApp({ env: { DISCORD_PUBLIC_KEY: publicKeyHex } });
    try {
      const payload = JSON.stringify({
        id: newInteractionId(),
        application_id: '2',
        type: 2,
        token: 'interaction-token',
        version: 1,
        data: { id: '3', name: 'inventory', type: 1 },
        channel_id: newChannel(),
        guild_id: GUILD,
        member: { user: { id: '1', username: 'someone' }, roles: [] },
      });
      const response = await signedRequest(payload, { app: keyOnly });
      expect(response.statusCode).toBe(200);
      const answer = response.json() as InteractionAnswer;
      expect(answer.data.flags).toBe(64);
      expect(answer.data.content).toBe(
        'Haversack cannot link Discord accounts on this server: whoever runs it has not set up Discord sign-in, so its commands cannot be used here yet.',
      );
      expect(answer.data.content).not.toContain('/profile');
    } finally {
      await keyOnly.close();
    }
  });

  it('points an unlinked user at the profile where sign-in is set up', async () => {
    const answer = await command('1', 'inventory');
    expect(answer.data.content).toBe(
      'Link your Discord account to Haversack first: open http://haversack.test/profile and choose "Link Discord".',
    );
  });

  it('warns at start-up that the commands are on while nobody can link', async () => {
    const warnings = async (env: Record<string, string>) => {
      const lines: { level: number; msg: string }[] = [];
      const sink = new Writable({
        write(chunk, _encoding, callback) {
          lines.push(JSON.parse(String(chunk)) as { level: number; msg: string });
          callback();
        },
      });
      const app = await buildTestApp({ env, logger: pino({ level: 'info' }, sink) });
      await app.close();
      return lines.filter((line) => line.level === 40).map((line) => line.msg);
    };
    expect(await warnings({ DISCORD_PUBLIC_KEY: publicKeyHex })).toContain(
      'DISCORD_PUBLIC_KEY is set but DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET are not: the slash commands answer, but players cannot link their Discord accounts, so every command refuses them. Set both to turn on Discord sign-in.',
    );
    const complete = await warnings({
      DISCORD_PUBLIC_KEY: publicKeyHex,
      DISCORD_CLIENT_ID: 'client-1',
      DISCORD_CLIENT_SECRET: 'client-secret',
    });
    expect(complete.filter((line) => line.includes('DISCORD'))).toEqual([]);
    expect((await warnings({})).filter((line) => line.includes('DISCORD'))).toEqual([]);
  });
});

describe('/loot', () => {
  it('lists the revealed loot of the bound party, never the hidden one, even for the GM', async () => {
    const { gm, party, ids, channelId } = await boundTable();
    const gem = await createTemplate(ctx, { name: 'Ruby', stackSize: 0 });
    const template = await createLootTemplate(ctx, gm, [{ item_template_id: gem.id, quantity: 3 }]);
    await deployLoot(ctx, gm, party.id, template.id, { name: 'Dragon hoard', reveal: true });
    await deployLoot(ctx, gm, party.id, template.id, { name: 'Secret stash' });

    for (const id of [ids.pip, ids.gm]) {
      const answer = await command(id, 'loot', [], { channelId });
      expect(answer.data.embeds?.map((e) => e.title)).toEqual(['Dragon hoard']);
      expect(answer.data.embeds?.[0]?.description).toContain('Ruby × 3');
      expect(JSON.stringify(answer)).not.toContain('Secret stash');
    }
  });

  it('says when there is none', async () => {
    const { ids, channelId } = await boundTable();
    expect((await command(ids.pip, 'loot', [], { channelId })).data.content).toContain('No revealed loot');
  });
});
