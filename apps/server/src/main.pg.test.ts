import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type DatabaseHandle, openPostgres } from './db/client.js';
import { latestMigrationMillis, migrationWhen } from './db/migration-journal.js';
import { prepareDatabase } from './db/prepare.js';

// Runs in the PostgreSQL pass (TEST_DATABASE_URL, see vitest.config.ts): what the server says when the
// database it is pointed at refuses it.
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function startWith(databaseUrl: string): Promise<{ code: number; stderr: string }> {
  try {
    await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--conditions=development', 'src/main.ts'],
      {
        cwd: serverDir,
        env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: databaseUrl, PORT: '1' },
        timeout: 30_000,
      },
    );
    return { code: 0, stderr: '' };
  } catch (error) {
    const { code, stderr } = error as { code: number; stderr: string };
    return { code, stderr };
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The `n` a counting statement answers. */
async function countOf(database: DatabaseHandle, statement: SQL): Promise<number> {
  return z
    .object({ rows: z.tuple([z.object({ n: z.number() })]) })
    .parse(await database.db.execute(statement)).rows[0].n;
}

/** A database of its own, migrated and seeded, dropped after `work`. */
async function withDatabase(work: (url: string, database: DatabaseHandle) => Promise<void>) {
  const name = `haversack_start_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    const database = await openPostgres(url.toString(), { max: 1 });
    try {
      await prepareDatabase(database);
      await work(url.toString(), database);
    } finally {
      await database.close();
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

describe('the server on a PostgreSQL that refuses it', () => {
  it('names the missing database in one line, without the password', async () => {
    const url = new URL(adminUrl);
    url.password = 's3cret';
    url.pathname = '/haversack_no_such_database';
    const { code, stderr } = await startWith(url.toString());
    expect(code).toBe(1);
    expect(stderr).not.toContain('s3cret');
    expect(stderr).toMatch(
      /^haversack: cannot open the database at postgres:\/\/[^\n]*:\*\*\*@[^\n]*: database "haversack_no_such_database" does not exist\n$/,
    );
  }, 60_000);

  it('names the missing role in one line', async () => {
    const url = new URL(adminUrl);
    url.username = 'haversack_no_such_role';
    const { code, stderr } = await startWith(url.toString());
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^haversack: cannot open the database at .+: role "haversack_no_such_role" does not exist\n$/,
    );
  }, 60_000);

  it('refuses a database a newer version upgraded, in one line', async () => {
    const name = `haversack_newer_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    try {
      const database = await openPostgres(url.toString(), { max: 1 });
      try {
        await database.migrate();
        await database.db.execute(
          sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('newer', ${latestMigrationMillis() + 1000})`,
        );
      } finally {
        await database.close();
      }
      const { code, stderr } = await startWith(url.toString());
      expect(code).toBe(1);
      expect(stderr).toBe(
        'haversack: the database was upgraded by a newer version of Haversack (it records migrations this version does not know); run that version or restore the backup taken before the upgrade\n',
      );
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }, 120_000);

  // What `pg_restore --clean` over an upgraded database left (docs/operations.md): newer tables, older
  // records.
  it('names the migration that failed, in one line, and applies none of them', async () => {
    await withDatabase(async (url, database) => {
      const from = migrationWhen('0023_discord_answered_interactions');
      await database.db.execute(sql`DELETE FROM drizzle.__drizzle_migrations WHERE created_at >= ${from}`);
      const { code, stderr } = await startWith(url);
      expect(code).toBe(1);
      expect(stderr).toBe(
        'haversack: database migration 0023_discord_answered_interactions failed: relation "discord_answered_interactions" already exists; no migration was applied (a start applies all of its migrations or none)\n',
      );
      expect(
        await countOf(
          database,
          sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations WHERE created_at >= ${from}`,
        ),
      ).toBe(0);
    });
  }, 120_000);
});

describe('the server upgrading a PostgreSQL database', () => {
  it('says which existing templates the seed data changed', async () => {
    await withDatabase(async (url, database) => {
      await database.db.execute(
        sql`UPDATE item_templates SET weight = 0 WHERE system_key = 'srd:explorer-s-pack'`,
      );
      await database.db.execute(sql`UPDATE item_templates SET stack_size = 1 WHERE system_key = 'srd:dart'`);
      await database.db.execute(
        sql`UPDATE shop_templates SET description = 'older' WHERE system_key IS NOT NULL`,
      );
      await database.db.execute(sql`UPDATE seed_state SET fingerprint = 'an older catalogue'`);
      const port = await freePort();
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-main-pg-'));
      const server = spawn(process.execPath, ['--import', 'tsx', '--conditions=development', 'src/main.ts'], {
        cwd: serverDir,
        // Its own DATA_DIR, for the JWT secret a server that starts generates there.
        env: {
          ...process.env,
          NODE_ENV: 'test',
          LOG_LEVEL: 'info',
          DATABASE_URL: url,
          PORT: String(port),
          DATA_DIR: dataDir,
        },
      });
      let output = '';
      const ready = new Promise<void>((resolve, reject) => {
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('Haversack is ready')) resolve();
        };
        server.stdout.on('data', read);
        server.stderr.on('data', read);
        server.once('close', () => reject(new Error(`the server exited before it was ready:\n${output}`)));
      });
      const exited = new Promise<number | null>((resolve) => server.once('close', resolve));
      try {
        await ready;
        const shops = await countOf(
          database,
          sql`SELECT count(*)::int AS n FROM shop_templates WHERE system_key IS NOT NULL`,
        );
        expect(output).toContain(
          `"msg":"seed data updated 2 item templates of the SRD 5.1 catalogue (1 weight, 1 stack size) and ${shops} shop templates; items already carried follow their template: their weight and value, and so characters' loads, can change"`,
        );
      } finally {
        server.kill('SIGTERM');
        expect(await exited).toBe(0);
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }, 120_000);
});

// Reviewer "multiproc" finding 2: every process on one database must sign with the same JWT_SECRET.
describe('the server joining a PostgreSQL database other processes use', () => {
  /** Starts the server until it is ready (then stops it) or it exits; answers its exit code and output. */
  async function startOn(url: string, env: Record<string, string>) {
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-main-pg-'));
    const { JWT_SECRET: _, ...inherited } = process.env;
    const server = spawn(process.execPath, ['--import', 'tsx', '--conditions=development', 'src/main.ts'], {
      cwd: serverDir,
      env: {
        ...inherited,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        DATABASE_URL: url,
        PORT: String(port),
        DATA_DIR: dataDir,
        ...env,
      },
    });
    let stdout = '';
    let stderr = '';
    server.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('Haversack is ready')) server.kill('SIGTERM');
    });
    server.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => server.once('close', resolve));
    rmSync(dataDir, { recursive: true, force: true });
    return { code, stdout, stderr };
  }

  it('refuses, in one line, a JWT_SECRET other than the one the database was first started with', async () => {
    await withDatabase(async (url) => {
      const first = await startOn(url, { JWT_SECRET: 'a'.repeat(43) });
      expect(first.stdout).toContain('Haversack is ready');
      const again = await startOn(url, { JWT_SECRET: 'a'.repeat(43) });
      expect(again.stdout).toContain('Haversack is ready');

      const other = await startOn(url, { JWT_SECRET: 'b'.repeat(43) });
      expect(other.code).toBe(1);
      expect(other.stdout).not.toContain('Haversack is ready');
      expect(other.stderr).toMatch(
        /^haversack: JWT_SECRET is not the one this database's other processes use \(recorded at [^\n]+\): set the same JWT_SECRET on every process[^\n]*\n$/,
      );
      expect(other.stderr).not.toContain('b'.repeat(43));
      // Without JWT_SECRET the process would sign with its own DATA_DIR/jwt-secret: refused too.
      const unset = await startOn(url, {});
      expect(unset.code).toBe(1);
      expect(unset.stderr).toMatch(/^haversack: JWT_SECRET is not the one/);
    });
  }, 180_000);

  it('warns when JWT_SECRET is unset on PostgreSQL', async () => {
    await withDatabase(async (url) => {
      const started = await startOn(url, {});
      expect(started.stdout).toContain('Haversack is ready');
      expect(started.stdout).toMatch(
        /"level":"?(40|warn)"?[^\n]*JWT_SECRET is not set: this process signs sessions with the secret in its own DATA_DIR/,
      );
    });
  }, 120_000);
});
