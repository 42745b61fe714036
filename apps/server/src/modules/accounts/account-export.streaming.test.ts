import type { AddressInfo } from 'node:net';
import { accountClosureMessages } from '@haversack/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { itemInstances } from '../../db/schema/items.js';
import {
  createCharacter,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, type TestContext } from '../../test/helper.js';
import { accountExportRepository } from './account-export.repository.js';

/**
 * Review "bigdata" finding 5: a big GM's export (46 MB) was read and written whole before its headers
 * went, so the browser's download timed out past 10 s and every other request waited for it. It is written
 * as it is read: the headers go first, the account is read in pages, and the server answers others between.
 * The reads are held at a gate the test opens, so that "still being read" is a fact, not a timing.
 */
let ctx: TestContext;
let baseUrl: string;
let hoarder: SignedInUser;
// Several of the export's pages of stacks (EXPORT_STACK_PAGE, 1,000).
const STACKS = 4_000;

beforeAll(async () => {
  ctx = await buildTestApp();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/api/v1`;
  hoarder = await createUser(ctx);
  await upgrade(ctx, hoarder, 'tier_3');
  const party = await createParty(ctx, hoarder);
  const candle = await createTemplate(ctx, { name: 'Candle', creatorId: hoarder.user.id, stackSize: 1 });
  // Five mules of 800 stacks: a page of stacks holds whole containers, so five pages.
  const bags: string[] = [];
  for (let mule = 0; mule < 5; mule++) {
    const character = await createCharacter(ctx, hoarder, { name: `Mule ${mule}`, partyId: party.id });
    bags.push(String(character.primary_container_id));
  }
  // Seeded at once: thousands of stacks through the API would take the test's whole budget.
  await ctx.database.db.insert(itemInstances).values(
    Array.from({ length: STACKS }, (_, index) => ({
      containerId: bags[index % bags.length] ?? '',
      itemTemplateId: candle.id,
      quantity: 1,
      notes: `Candle number ${index} of the mules' long hoard`,
    })),
  );
});
afterEach(() => vi.restoreAllMocks());
afterAll(async () => ctx.close());

const exportRequest = () =>
  fetch(`${baseUrl}/users/me/export`, {
    headers: { authorization: `Bearer ${hoarder.token}`, 'accept-encoding': 'identity' },
  });

function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

async function expectWholeExport(text: string) {
  const document = JSON.parse(text) as {
    data: { characters: { containers: { items: unknown[] }[] }[] };
    message: string;
  };
  // One indented document in the envelope, every stack in it.
  expect(text).toBe(JSON.stringify(document, null, 2));
  expect(document.message).toBe(accountClosureMessages.exported);
  expect(document.data.characters.flatMap((c) => c.containers.flatMap((bag) => bag.items))).toHaveLength(
    STACKS,
  );
}

describe('GET /users/me/export, streamed', () => {
  it('sends its headers before it reads the account', { timeout: 15_000 }, async () => {
    // The account's reads wait until the client has the headers: an export that read first never answers.
    const headersSeen = gate();
    const characters = accountExportRepository.characters;
    vi.spyOn(accountExportRepository, 'characters').mockImplementation(async (...args) => {
      await headersSeen.opened;
      return characters(...args);
    });
    const response = await exportRequest();
    headersSeen.open();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      new RegExp(
        `^attachment; filename="haversack-export-${hoarder.user.username}-\\d{4}-\\d{2}-\\d{2}\\.json"$`,
      ),
    );
    await expectWholeExport(await response.text());
  });

  it('answers another request while a big export is still being read', async () => {
    // The second page of stacks waits until the other request is answered.
    const answered = gate();
    const itemsIn = accountExportRepository.itemsIn;
    const pages = vi.spyOn(accountExportRepository, 'itemsIn').mockImplementation(async (...args) => {
      if (pages.mock.calls.length > 1) await answered.opened;
      return itemsIn(...args);
    });
    const events: string[] = [];
    const response = await exportRequest();
    expect(response.status).toBe(200);
    const body = response.text().then((text) => {
      events.push('export ended');
      return text;
    });
    const health = await fetch(`${baseUrl}/health`);
    expect(health.status).toBe(200);
    await health.text();
    events.push('health answered');
    answered.open();
    await expectWholeExport(await body);
    expect(events).toEqual(['health answered', 'export ended']);
    // Read in pages, the event loop free between them.
    expect(pages.mock.calls.length).toBeGreaterThan(1);
  });
});
