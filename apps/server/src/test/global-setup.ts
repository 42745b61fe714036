import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../db/client.js';
import { seedDatabase } from '../db/seed.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplatePath: string;
    postgresTemplate: { url: string; database: string } | null;
  }
}

/**
 * DESIGN §9: migrate one template database once and clone it per test file. With TEST_DATABASE_URL the
 * template is a PostgreSQL database (CREATE DATABASE ... TEMPLATE); otherwise a PGlite data dump.
 */
export default async function setup(project: TestProject) {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-test-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  let templateDatabase: string | undefined;

  if (adminUrl) {
    templateDatabase = `haversack_tpl_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${templateDatabase}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${templateDatabase}`;
    const handle = await openPostgres(url.toString(), { max: 1 });
    await handle.migrate();
    await seedDatabase(handle.db);
    await handle.close();
    project.provide('postgresTemplate', { url: adminUrl, database: templateDatabase });
    project.provide('pgliteTemplatePath', '');
  } else {
    const handle = await openPglite({});
    await handle.migrate();
    await seedDatabase(handle.db);
    if (!handle.dump) throw new Error('PGlite handle cannot dump its data directory');
    const dump = await handle.dump();
    const file = path.join(workDir, 'template.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    await handle.close();
    project.provide('pgliteTemplatePath', file);
    project.provide('postgresTemplate', null);
  }

  return async () => {
    rmSync(workDir, { recursive: true, force: true });
    if (adminUrl && templateDatabase) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${templateDatabase} WITH (FORCE)`);
      await admin.end();
    }
  };
}
