import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
import { withChangeSource } from '../../lib/change-source.js';
import { InProcessBroadcaster } from '../../realtime/broadcaster.js';
import { EventBus } from '../../realtime/event-bus.js';
import { createCharacter, createTemplate, createUser } from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { ledgerRepository } from './ledger.repository.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const rowsOfTemplate = (templateId: string) =>
  ctx.database.db.select().from(transactions).where(eq(transactions.itemTemplateId, templateId));

describe('where a change came from (DESIGN §4)', () => {
  it('marks a change made through the web API as "web"', async () => {
    const player = await createUser(ctx);
    const hero = await createCharacter(ctx, player);
    const rope = await createTemplate(ctx, { name: 'Rope' });
    const response = await callApi(ctx, 'POST', '/item_instances', player, {
      item_template_id: rope.id,
      container_id: String(hero.primary_container_id),
      quantity: 2,
    });
    expect(response.statusCode, response.body).toBe(201);
    const rows = await rowsOfTemplate(rope.id);
    expect(rows.map((row) => row.source)).toEqual(['web']);
  });

  it('marks what a background job writes as "system", and keeps a source the use case named', async () => {
    const jobTemplate = await createTemplate(ctx, { name: 'Restocked lantern' });
    const named = await createTemplate(ctx, { name: 'Named source' });
    ctx.app.services.jobs.register('source_probe', async (tx) => {
      const base = { transactionType: 'adjust', summary: 'probe', quantity: 1 } as const;
      await ledgerRepository.record(tx, [{ ...base, itemTemplateId: jobTemplate.id }]);
      await ledgerRepository.record(tx, { ...base, itemTemplateId: named.id, source: 'admin' });
      return undefined;
    });
    await ctx.database.db.transaction((tx) =>
      ctx.app.services.jobs.schedule(tx, { kind: 'source_probe', key: 'source-probe', runAt: new Date(0) }),
    );
    await ctx.app.services.jobs.runDue();
    expect((await rowsOfTemplate(jobTemplate.id)).map((row) => row.source)).toEqual(['system']);
    expect((await rowsOfTemplate(named.id)).map((row) => row.source)).toEqual(['admin']);
  });

  it('keeps concurrent sources apart and puts the source on every real-time event', async () => {
    const broadcaster = new InProcessBroadcaster();
    const bus = new EventBus(broadcaster, pino({ level: 'silent' }));
    const received: { action: string; source: string }[] = [];
    const summaries: { source: string }[] = [];
    broadcaster.subscribe('party_inventory:p1', (message) => received.push(message as never));
    broadcaster.subscribe('party:p1', (message) => summaries.push(message as never));
    const event = (action: string) => ({
      channel: 'PartyInventoryChannel' as const,
      partyId: 'p1',
      action,
      actor: null,
      summary: action,
    });
    const later = () => new Promise((resolve) => setTimeout(resolve, 5));
    await Promise.all([
      withChangeSource('discord', async () => {
        await later();
        bus.publish([event('item_added')]);
      }),
      withChangeSource('api', async () => {
        bus.publish([event('from_api')]);
        await later();
      }),
    ]);
    bus.publish([event('outside')]);
    await later();
    const sourceOf = (action: string) => received.find((message) => message.action === action)?.source;
    expect(sourceOf('item_added')).toBe('discord');
    expect(sourceOf('from_api')).toBe('api');
    expect(sourceOf('outside')).toBe('web');
    // The party summary that follows an item change carries the same source (it goes to PartyChannel).
    expect(summaries.map((message) => message.source)).toEqual(['discord']);
  });
});
