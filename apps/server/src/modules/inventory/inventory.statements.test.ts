import { and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containers, transactions } from '../../db/schema/inventory.js';
import { itemInstances, itemTemplates } from '../../db/schema/items.js';
import { createCharacter, createParty, createTemplate, createUser } from '../../test/factories.js';
import { buildTestApp, type TestContext } from '../../test/helper.js';
import { ledgerRepository } from '../ledger/ledger.repository.js';
import { subscriptionsRepository } from '../subscriptions/subscriptions.repository.js';
import { inventoryRepository as repo } from './inventory.repository.js';

// The hot statements of a move are written as SQL and mapped by hand (inventory.statements.ts): they must
// answer exactly the rows drizzle answers for the same reads, on PGlite and on PostgreSQL.
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const { searchVector: _searchVector, ...templateColumns } = getTableColumns(itemTemplates);

async function setUp() {
  const gm = await createUser(ctx);
  const party = await createParty(ctx, gm, { encumbrance_style: 'weight' });
  const character = await createCharacter(ctx, gm, { partyId: party.id, maxWeight: 12.5, maxSlots: null });
  const [backpack] = await repo.listForOwner(ctx.database.db, { characterId: character.id });
  if (!backpack) throw new Error('no primary container');
  const stash = await repo.insertContainer(ctx.database.db, { name: 'Stash', partyId: party.id });
  const template = await createTemplate(ctx, {
    name: 'Arrow',
    weight: 0.05,
    stackSize: 20,
    tags: ['ammunition', 'wood'],
    metadata: { rarity: 'common' },
  });
  const moved = await repo.insertInstance(ctx.database.db, {
    containerId: backpack.id,
    itemTemplateId: template.id,
    quantity: 12,
    instanceData: { name_override: 'Bodkin' },
    notes: 'sharp',
  });
  const waiting = await repo.insertInstance(ctx.database.db, {
    containerId: stash.id,
    itemTemplateId: template.id,
    quantity: 3,
  });
  return { gm, party, character, backpack, stash, template, moved, waiting };
}

describe('the statements of a move', () => {
  it('locate and lock containers as the drizzle read locates them', async () => {
    const { gm, backpack, stash } = await setUp();
    await ctx.database.db.transaction(async (tx) => {
      const entitlements = ctx.app.services.entitlements;
      const locked = await repo.lockContextsForUser(
        tx,
        gm.user.id,
        [stash.id, backpack.id],
        entitlements.subscriptionReadSql('$1', 'p.id'),
      );
      const read = await repo.contextsForUser(tx, gm.user.id, [backpack.id, stash.id]);
      expect([...locked.keys()]).toEqual([backpack.id, stash.id].sort());
      const { extra, ...backpackRow } = locked.get(backpack.id) ?? {};
      expect(backpackRow).toEqual(read.get(backpack.id));
      const { extra: stashExtra, ...stashRow } = locked.get(stash.id) ?? {};
      expect(stashRow).toEqual(read.get(stash.id));
      // The caller's extra column: here the user's subscription as the entitlements read it.
      const subscription = await subscriptionsRepository.findByUser(tx, gm.user.id);
      expect(entitlements.readSubscription(extra).row).toEqual({ ...subscription, probe: false });
      expect(entitlements.readSubscription(stashExtra).row).toEqual({ ...subscription, probe: false });
      expect(locked.get(backpack.id)?.context.container.maxWeight).toBe(12.5);
      expect(locked.get(stash.id)?.role).toBe('gm');
    });
  });

  it('locate a container for its items as the drizzle read locates it, with the fingerprint of its items', async () => {
    const { gm, backpack, stash, template, moved } = await setUp();
    const db = ctx.database.db;
    const fingerprints = async () => {
      const read = await repo.contextsForUser(db, gm.user.id, [backpack.id, stash.id]);
      const answers = [];
      for (const container of [backpack, stash]) {
        const { fingerprint, ...located } =
          (await repo.contextForItems(db, gm.user.id, container.id, true)) ?? {};
        expect(located).toEqual(read.get(container.id));
        const { fingerprint: none, ...alone } =
          (await repo.contextForItems(db, gm.user.id, container.id, false)) ?? {};
        expect(alone).toEqual(read.get(container.id));
        expect(none).toBeUndefined();
        // The stacks' md5, then the count of template changes.
        expect(fingerprint).toMatch(/^[0-9a-f]{32}:\d+$/);
        answers.push(fingerprint);
      }
      return answers;
    };
    const [backpackFirst, stashFirst] = await fingerprints();
    expect(await fingerprints()).toEqual([backpackFirst, stashFirst]);
    // A stack of the backpack rewritten: the backpack's changes, the stash's does not.
    await repo.updateInstance(db, moved.id, { notes: 'blunt' });
    const [backpackSecond, stashSecond] = await fingerprints();
    expect(backpackSecond).not.toBe(backpackFirst);
    expect(stashSecond).toBe(stashFirst);
    // Their shared template rewritten: both change.
    await db.update(itemTemplates).set({ weight: 0.1 }).where(eq(itemTemplates.id, template.id));
    const [backpackThird, stashThird] = await fingerprints();
    expect(backpackThird).not.toBe(backpackSecond);
    expect(stashThird).not.toBe(stashSecond);
    expect(await repo.contextForItems(db, gm.user.id, crypto.randomUUID(), true)).toBeUndefined();
  });

  it('lock the moved stack and the target’s stacks of its template, with the template, as drizzle reads them', async () => {
    const { backpack, stash, moved, waiting, template } = await setUp();
    await ctx.database.db.transaction(async (tx) => {
      const reads = await repo.lockMove(tx, moved.id, stash.id);
      const [drizzleRow] = await tx
        .select({ instance: itemInstances, template: templateColumns, characterId: containers.characterId })
        .from(itemInstances)
        .innerJoin(itemTemplates, eq(itemTemplates.id, itemInstances.itemTemplateId))
        .innerJoin(containers, eq(containers.id, itemInstances.containerId))
        .where(eq(itemInstances.id, moved.id));
      const targetStacks = await tx
        .select()
        .from(itemInstances)
        .where(and(eq(itemInstances.containerId, stash.id), eq(itemInstances.itemTemplateId, template.id)))
        .orderBy(asc(itemInstances.createdAt), asc(itemInstances.id));
      expect(reads).toEqual({
        instance: drizzleRow?.instance,
        template: drizzleRow?.template,
        sourceCharacterId: backpack.characterId,
        targetStacks,
      });
      expect(reads?.targetStacks.map((s) => s.id)).toEqual([waiting.id]);
      expect(reads?.template.tags).toEqual(['ammunition', 'wood']);
      expect(reads?.template.weight).toBe(0.05);
    });
  });

  it('leave out the target’s full stacks, which a move can never top up (a loot of 700 swords read them all 700 times)', async () => {
    const { moved, stash, waiting, template } = await setUp();
    const full = await repo.insertInstance(ctx.database.db, {
      containerId: stash.id,
      itemTemplateId: template.id,
      quantity: template.stackSize,
    });
    const swordTemplate = await createTemplate(ctx, { name: 'Longsword', weight: 3, stackSize: 1 });
    const sword = await repo.insertInstance(ctx.database.db, {
      containerId: moved.containerId,
      itemTemplateId: swordTemplate.id,
      quantity: 1,
    });
    const swordsThere = await Promise.all(
      [1, 2, 3].map(() =>
        repo.insertInstance(ctx.database.db, {
          containerId: stash.id,
          itemTemplateId: swordTemplate.id,
          quantity: 1,
        }),
      ),
    );
    await ctx.database.db.transaction(async (tx) => {
      const arrows = await repo.lockMove(tx, moved.id, stash.id);
      expect(arrows?.targetStacks.map((s) => s.id)).toEqual([waiting.id]);
      expect(arrows?.targetStacks.map((s) => s.id)).not.toContain(full.id);
      const swords = await repo.lockMove(tx, sword.id, stash.id);
      expect(swords?.instance.id).toBe(sword.id);
      expect(swords?.targetStacks).toEqual([]);
      expect(swordsThere).toHaveLength(3);
    });
  });

  it('write quantities, new stacks and deletions, answering the rows as drizzle reads them back', async () => {
    const { moved, waiting, stash, template } = await setUp();
    await ctx.database.db.transaction(async (tx) => {
      const updated = await repo.setQuantities(tx, [
        { id: moved.id, quantity: 5 },
        { id: waiting.id, quantity: 2 ** 40 },
      ]);
      const reread = await tx
        .select()
        .from(itemInstances)
        .where(inArray(itemInstances.id, [moved.id, waiting.id]));
      const byId = (rows: { id: string }[]) => [...rows].sort((a, b) => a.id.localeCompare(b.id));
      expect(byId(updated)).toEqual(byId(reread));
      expect(updated.find((row) => row.id === waiting.id)?.quantity).toBe(2 ** 40);

      const created = await repo.insertInstance(tx, {
        containerId: stash.id,
        itemTemplateId: template.id,
        quantity: 7,
        instanceData: { is_attuned: true },
      });
      expect(created).toEqual(await repo.instance(tx, created.id));
      expect(created).toMatchObject({
        quantity: 7,
        notes: '',
        isIdentified: true,
        instanceData: { is_attuned: true },
      });

      await repo.deleteInstance(tx, created.id);
      expect(await repo.instance(tx, created.id)).toBeUndefined();
    });
  });

  it('write ledger rows in one insert, in order, unset columns taking their defaults', async () => {
    const { gm, party, stash, template } = await setUp();
    const ids = await ctx.database.db.transaction((tx) =>
      ledgerRepository.recordReturningIds(tx, [
        {
          transactionType: 'transfer',
          partyId: party.id,
          actorId: gm.user.id,
          actorName: gm.user.username,
          itemTemplateId: template.id,
          itemName: 'Arrow',
          quantity: 2 ** 40,
          destinationContainerId: stash.id,
          scope: 'party',
          summary: 'first',
          details: { recipient_notice: 'a "quoted" note' },
        },
        { transactionType: 'adjust', summary: 'second', gmOnly: true, source: 'discord' },
      ]),
    );
    const rows = await ledgerRepository.byIds(ctx.database.db, ids);
    expect(rows.map((row) => row.summary)).toEqual(['first', 'second']);
    expect(rows[0]).toMatchObject({
      transactionType: 'transfer',
      partyId: party.id,
      quantity: 2 ** 40,
      scope: 'party',
      details: { recipient_notice: 'a "quoted" note' },
      gmOnly: false,
      source: 'web',
      notes: null,
      amountCp: null,
    });
    expect(rows[0]?.transactionDate).toBeInstanceOf(Date);
    expect(rows[1]).toMatchObject({ gmOnly: true, source: 'discord', partyId: null, details: null });
    const [{ n } = { n: 0 }] = await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(transactions)
      .where(inArray(transactions.id, ids));
    expect(n).toBe(2);
  });

  it('write new quantities and the move’s ledger row in one statement', async () => {
    const { gm, party, moved, waiting, stash } = await setUp();
    const entry = {
      transactionType: 'transfer',
      partyId: party.id,
      actorId: gm.user.id,
      itemInstanceId: waiting.id,
      quantity: 4,
      destinationContainerId: stash.id,
      summary: 'moved 4',
    };
    const written = await ctx.database.db.transaction((tx) =>
      repo.setQuantitiesRecording(
        tx,
        [
          { id: moved.id, quantity: 8 },
          { id: waiting.id, quantity: 7 },
        ],
        entry,
      ),
    );
    const reread = await ctx.database.db
      .select()
      .from(itemInstances)
      .where(inArray(itemInstances.id, [moved.id, waiting.id]));
    const byId = (rows: { id: string }[]) => [...rows].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId(written.rows)).toEqual(byId(reread));
    expect(reread.map((row) => row.quantity).sort()).toEqual([7, 8]);
    const [row] = await ledgerRepository.byIds(ctx.database.db, [written.id]);
    expect(row).toMatchObject({ ...entry, source: 'web', gmOnly: false });
    // Nothing to update: the ledger row would go unwritten, so the statement refuses.
    await expect(
      ctx.database.db.transaction((tx) =>
        repo.setQuantitiesRecording(tx, [{ id: '00000000-0000-4000-8000-000000000000', quantity: 1 }], entry),
      ),
    ).rejects.toThrow(/ledger row went unwritten/);
  });
});
