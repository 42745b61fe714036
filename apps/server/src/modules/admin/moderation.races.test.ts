import { errorCatalogue } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, type SignedInAdmin } from '../../test/admin.js';
import { createUser, type SignedInUser, upgrade } from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';

/**
 * Two staff members unpublishing the same reported template, one dismissing a third report on it, while
 * its owner deletes it and publishes it again (the API attack review, beside M1). On PostgreSQL each
 * unpublish locked its own report, then the template, then every open report on the template: two of them
 * each held a report the other wanted next, and PostgreSQL ended one with a deadlock (a 409 that says only
 * "conflict"). A 409 saying the report was handled meanwhile is the answer a client can act on.
 */
let ctx: TestContext;
let admin: SignedInAdmin;

beforeAll(async () => {
  ctx = await buildTestApp();
  admin = await createAdmin(ctx);
});

afterAll(async () => {
  await ctx?.close();
});

describe('unpublishing a template while its owner deletes it', () => {
  it('two unpublishes, a dismissal, a delete and an edit at once: no 500, no deadlock', async () => {
    const owner = await createUser(ctx);
    await upgrade(ctx, owner, 'tier_3');
    // Two groups of three reporters taking turns: a user may report 20 times an hour.
    const reporters: SignedInUser[] = [];
    for (let i = 0; i < 6; i++) reporters.push(await createUser(ctx));
    const failures: string[] = [];
    for (let round = 0; round < 30; round++) {
      const created = await callApi(ctx, 'POST', '/item_templates', owner, {
        item_template: { name: `Dubious ${round}`, weight: 1, base_value: 1, visibility: 'public' },
      });
      const templateId = created.json().data.id as string;
      const reportIds: string[] = [];
      for (const reporter of reporters.slice((round % 2) * 3, (round % 2) * 3 + 3)) {
        const report = await callApi(ctx, 'POST', '/reports', reporter, {
          target_type: 'item_template',
          target_id: templateId,
          reason: 'Not an item',
        });
        reportIds.push(report.json().data.id as string);
      }
      // The unpublishes sent first: a delete reaching the template before them leaves them nothing to do.
      const answers = await Promise.all([
        callApi(ctx, 'POST', `/admin/reports/${reportIds[0]}/unpublish`, admin.adminAuth, {}),
        callApi(ctx, 'POST', `/admin/reports/${reportIds[1]}/unpublish`, admin.adminAuth, {}),
        callApi(ctx, 'POST', `/admin/reports/${reportIds[2]}/dismiss`, admin.adminAuth, {}),
        callApi(ctx, 'DELETE', `/item_templates/${templateId}`, owner),
        callApi(ctx, 'PUT', `/item_templates/${templateId}`, owner, {
          item_template: { visibility: 'public' },
        }),
      ]);
      // A 409 may say the report was handled meanwhile; the generic one is a deadlock PostgreSQL broke.
      failures.push(
        ...answers
          .filter(
            (answer) =>
              answer.statusCode >= 500 ||
              (answer.statusCode === 409 && answer.json().error.message === errorCatalogue.CONFLICT.message),
          )
          .map((answer) => `${answer.statusCode} ${answer.json().error.message}`),
      );
    }
    expect(failures).toEqual([]);
  });
});
