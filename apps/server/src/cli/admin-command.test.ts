import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type DatabaseHandle, openPglite, openPostgres } from '../db/client.js';
import { processStartTime } from '../db/data-dir-lock.js';
import { checkJwtSecret } from '../db/jwt-secret-fingerprint.js';
import { latestMigrationMillis } from '../db/migration-journal.js';
import { users } from '../db/schema/accounts.js';
import { auditLogs } from '../db/schema/admin.js';
import { adminUsage, describePostgres, runAdminCommand } from './admin-command.js';

/**
 * The command works on the database the server would use: PGlite in DATA_DIR by default, PostgreSQL
 * when TEST_DATABASE_URL (and so DATABASE_URL) is set.
 */
const postgres = inject('postgresTemplate');

interface Target {
  env: NodeJS.ProcessEnv;
  /** The line the command says first, on stderr. */
  databaseLine: string;
  open(): Promise<DatabaseHandle>;
  cleanup(): Promise<void>;
}

async function prepareTarget(): Promise<Target> {
  if (postgres) {
    const name = `haversack_cli_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${postgres.database}`);
    await admin.end();
    const url = new URL(postgres.url);
    url.pathname = `/${name}`;
    return {
      env: { DATABASE_URL: url.toString(), LOG_LEVEL: 'silent' },
      databaseLine: `Database: PostgreSQL ${url.username}@${url.hostname}:${url.port || '5432'}/${name}`,
      open: () => openPostgres(url.toString(), { max: 1 }),
      cleanup: async () => {
        const dropper = new pg.Client({ connectionString: postgres.url });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await dropper.end();
      },
    };
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-cli-'));
  const pgliteDir = path.join(dataDir, 'pglite');
  // The migrated template, unpacked where the server keeps its database.
  const first = await openPglite({
    dataDir: pgliteDir,
    loadDataDir: new Blob([readFileSync(inject('pgliteTemplatePath'))]),
  });
  await first.close();
  return {
    env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    databaseLine: `Database: PGlite in ${dataDir}`,
    open: () => openPglite({ dataDir: pgliteDir }),
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

async function run(args: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdminCommand(args, env, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('npm run admin', () => {
  let target: Target;
  const email = 'Alice@Example.com';

  beforeAll(async () => {
    target = await prepareTarget();
    const db = await target.open();
    await db.db.insert(users).values({ email, username: 'alice', passwordHash: 'x' });
    await db.db.insert(users).values({ email: 'bob@example.com', username: 'bob', passwordHash: 'x' });
    await db.close();
  });
  afterAll(async () => target.cleanup());

  async function adminFlagOf(address: string) {
    const db = await target.open();
    try {
      const [row] = await db.db.select().from(users).where(eq(users.email, address));
      const audit = row ? await db.db.select().from(auditLogs).where(eq(auditLogs.targetId, row.id)) : [];
      return { admin: row?.admin, audit };
    } finally {
      await db.close();
    }
  }

  it('grants the flag by email (any case), lists admins, and revokes it, auditing each change', async () => {
    expect(await run(['list'], target.env)).toEqual({
      code: 0,
      out: 'No admins yet. Make one with: node apps/server/dist/cli/admin.js grant EMAIL',
      // Which database it opened, once, on stderr: stdout stays the list a script reads.
      err: target.databaseLine,
    });

    const granted = await run(['grant', 'alice@example.COM'], target.env);
    expect(granted).toMatchObject({ code: 0, out: 'Alice@Example.com is now an admin.' });
    expect((await adminFlagOf(email)).admin).toBe(true);

    const again = await run(['grant', email], target.env);
    expect(again.out).toMatch(/already an admin; nothing changed/);

    const listed = await run(['list'], target.env);
    expect(listed.out).toContain('Alice@Example.com\talice');
    expect(listed.out).not.toContain('bob@example.com');

    expect(await run(['revoke', email], target.env)).toMatchObject({ code: 0 });
    const after = await adminFlagOf(email);
    expect(after.admin).toBe(false);
    expect(after.audit.map((entry) => [entry.action, entry.before, entry.after])).toEqual(
      expect.arrayContaining([
        ['admin_granted', { admin: false }, { admin: true }],
        ['admin_revoked', { admin: true }, { admin: false }],
      ]),
    );
    expect(after.audit).toHaveLength(2);
  });

  it('lists a suspended admin as such and lifts the suspension with unsuspend, audited', async () => {
    const address = 'locked-out@example.com';
    const db = await target.open();
    try {
      await db.db.insert(users).values({
        email: address,
        username: 'lockedout',
        passwordHash: 'x',
        admin: true,
        suspendedAt: new Date('2026-02-01T10:00:00Z'),
        suspendedReason: 'suspended by another admin',
      });
    } finally {
      await db.close();
    }
    const listed = await run(['list'], target.env);
    expect(listed.out).toMatch(
      /locked-out@example\.com\tlockedout\t[0-9a-f-]{36}\tsuspended since 2026-02-01T10:00:00\.000Z/,
    );
    expect(listed.err).toContain('unsuspend EMAIL');

    expect(await run(['unsuspend', 'Locked-Out@example.com'], target.env)).toMatchObject({
      code: 0,
      out: 'locked-out@example.com is no longer suspended and can sign in again.',
    });
    expect((await run(['list'], target.env)).out).toMatch(
      /locked-out@example\.com\tlockedout\t[0-9a-f-]{36}\tactive/,
    );
    expect((await run(['unsuspend', address], target.env)).out).toBe(
      'locked-out@example.com was not suspended; nothing changed.',
    );
    expect((await run(['unsuspend', 'nobody@example.com'], target.env)).code).toBe(1);
    expect((await run(['unsuspend'], target.env)).code).toBe(2);

    const check = await target.open();
    try {
      const [row] = await check.db.select().from(users).where(eq(users.email, address));
      expect([row?.suspendedAt, row?.suspendedReason]).toEqual([null, null]);
      const audit = row ? await check.db.select().from(auditLogs).where(eq(auditLogs.targetId, row.id)) : [];
      expect(audit.map((entry) => [entry.action, entry.actorId, entry.after, entry.details])).toEqual([
        ['user_unsuspended', null, { suspended_at: null }, { via: 'command', email: address }],
      ]);
    } finally {
      await check.close();
    }
  });

  // Reviewer "multiproc" finding 2: a server refuses a JWT_SECRET other than the recorded one; replacing
  // it on purpose goes through this command.
  it('forgets the recorded JWT_SECRET fingerprint, so the next server records its own', async () => {
    const db = await target.open();
    try {
      await checkJwtSecret(db.db, 'a'.repeat(43));
    } finally {
      await db.close();
    }
    expect(await run(['forget-jwt-secret'], target.env)).toMatchObject({
      code: 0,
      out: 'The JWT_SECRET fingerprint is forgotten: the next server to start records its own; start every other one with the same JWT_SECRET.',
    });
    expect(await run(['forget-jwt-secret'], target.env)).toMatchObject({
      code: 0,
      out: 'No JWT_SECRET fingerprint was recorded; nothing changed.',
    });
    const reopened = await target.open();
    try {
      expect(await checkJwtSecret(reopened.db, 'b'.repeat(43))).toEqual({ status: 'recorded' });
    } finally {
      await reopened.close();
    }
  });

  it('answers help with its usage alone, without touching the database', async () => {
    for (const ask of ['--help', '-h', 'help']) {
      expect(await run([ask], {})).toEqual({ code: 0, out: adminUsage, err: '' });
    }
  });

  it('says so when no account has the email, and explains its usage', async () => {
    expect(await run(['grant', 'nobody@example.com'], target.env)).toMatchObject({
      code: 1,
      err: `${target.databaseLine}\nhaversack admin: No account has the email nobody@example.com.`,
    });
    const bad = await run(['promote', email], target.env);
    expect(bad.code).toBe(2);
    // The command that works in every install: a production one has no tsx for `npm run admin`.
    expect(bad.err).toMatch(/usage: node apps\/server\/dist\/cli\/admin\.js <command>/);
    expect((await run(['grant', 'not-an-address'], target.env)).code).toBe(2);
  });

  it('creates a verified admin account with a password from ADMIN_PASSWORD or stdin, never from argv', async () => {
    const created = await run(['create', 'Owner@example.com', 'owner'], {
      ...target.env,
      ADMIN_PASSWORD: 'Sup3rSecret',
    });
    expect(created).toMatchObject({ code: 0, out: 'Owner@example.com (owner) is created and is an admin.' });
    const owner = await adminFlagOf('Owner@example.com');
    expect(owner.admin).toBe(true);
    expect(owner.audit.map((entry) => entry.action)).toEqual(['admin_granted']);

    const out: string[] = [];
    const fromStdin = await runAdminCommand(
      ['create', 'second@example.com', 'second', '--password-stdin'],
      target.env,
      { out: (line) => out.push(line), err: (line) => out.push(line) },
      async () => 'An0therSecret\n',
    );
    expect([fromStdin, out]).toEqual([
      0,
      [target.databaseLine, 'second@example.com (second) is created and is an admin.'],
    ]);

    expect(await run(['create', 'third@example.com', 'third'], target.env)).toMatchObject({
      code: 2,
      err: 'haversack admin: give the password in ADMIN_PASSWORD or with --password-stdin',
    });
    expect(
      await run(['create', 'third@example.com', 'third'], { ...target.env, ADMIN_PASSWORD: 'short' }),
    ).toMatchObject({ code: 2 });
    expect(
      await run(['create', 'owner@example.com', 'other'], { ...target.env, ADMIN_PASSWORD: 'Sup3rSecret' }),
    ).toMatchObject({
      code: 1,
      err: `${target.databaseLine}\nhaversack admin: An account already has the email owner@example.com.`,
    });
  });

  it('refuses a database a newer build upgraded, changing nothing', async () => {
    const db = await target.open();
    const newer = latestMigrationMillis() + 1000;
    try {
      await db.db.execute(
        sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('newer', ${newer})`,
      );
    } finally {
      await db.close();
    }
    try {
      const refused = await run(['grant', email], target.env);
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(
        /^haversack admin: (PGlite in|PostgreSQL) .+: the database was upgraded by a newer version of Haversack .+; run that version or restore the backup taken before the upgrade$/,
      );
      expect((await adminFlagOf(email)).admin).toBe(false);
    } finally {
      const cleanup = await target.open();
      await cleanup.db.execute(sql`DELETE FROM drizzle.__drizzle_migrations WHERE created_at = ${newer}`);
      await cleanup.close();
    }
  });

  // The lock exists only for PGlite: PostgreSQL serves the server and the command side by side.
  if (postgres === null)
    it('refuses with one line while the server holds the PGlite directory', async () => {
      const dataDir = target.env.DATA_DIR ?? '';
      // A live Node process standing in for the server, named in the lock file as the server names itself.
      const server: ChildProcess = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
      try {
        const pid = server.pid ?? 0;
        await new Promise((resolve) => setTimeout(resolve, 200));
        writeFileSync(
          path.join(dataDir, 'haversack.pid'),
          JSON.stringify({ pid, boot_id: null, start_time: processStartTime(pid) }),
        );
        const refused = await run(['grant', email], target.env);
        expect(refused.code).toBe(1);
        expect(refused.err).toBe(
          `haversack admin: the Haversack server (pid ${pid}) is using ${path.resolve(dataDir)}: stop it, run this command, then start the server again.`,
        );
        expect((await adminFlagOf(email)).admin).toBe(false);
      } finally {
        server.kill();
        rmSync(path.join(dataDir, 'haversack.pid'), { force: true });
      }
    });
});

// A shell without the server's DATA_DIR or DATABASE_URL, or with a typo in one, must not get a new empty
// database that the command reports success in while the server's own is untouched.
describe('npm run admin where no server has started', () => {
  const password = { ADMIN_PASSWORD: 'Sup3rSecret', LOG_LEVEL: 'silent' };

  it('refuses a DATA_DIR without a database, and creates nothing there', async () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'haversack-cli-none-'));
    try {
      const typo = path.join(parent, 'haversak');
      const refused = await run(['create', 'boss2@example.com', 'boss2'], { ...password, DATA_DIR: typo });
      expect(refused).toEqual({
        code: 1,
        out: '',
        err: `haversack admin: no Haversack database in ${typo} (DATA_DIR): start the server there once, or set DATA_DIR (PGlite) or DATABASE_URL (PostgreSQL) to the server’s (or, for a new site, create its first admin with --new-site).`,
      });
      expect(existsSync(typo)).toBe(false);

      // A directory that exists, empty: no pglite directory, no lock file left behind.
      const empty = path.join(parent, 'empty');
      mkdirSync(empty);
      expect((await run(['list'], { LOG_LEVEL: 'silent', DATA_DIR: empty })).code).toBe(1);
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  // Only root can leave files another user's server cannot open, and only root can make such a directory.
  it.runIf(process.getuid?.() === 0)(
    'refuses to run as root on a DATA_DIR another user owns, touching nothing',
    async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-cli-owner-'));
      try {
        mkdirSync(path.join(dataDir, 'pglite'));
        writeFileSync(path.join(dataDir, 'pglite', 'PG_VERSION'), '17\n');
        chownSync(dataDir, 65534, 65534);
        const refused = await run(['list'], { LOG_LEVEL: 'silent', DATA_DIR: dataDir });
        expect(refused.code).toBe(1);
        expect(refused.err).toBe(
          `haversack admin: ${dataDir} belongs to uid 65534, and this command runs as root: run it as the user that runs the server (e.g. sudo -u "#65534" ...), or the server could not open the files it would leave.`,
        );
        expect(readdirSync(dataDir)).toEqual(['pglite']);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );

  it('makes a new site’s database for its first admin with create --new-site, and only then', async () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'haversack-cli-new-'));
    try {
      const fresh = path.join(parent, 'site');
      const made = await run(['create', 'owner@example.com', 'owner', '--new-site'], {
        ...password,
        DATA_DIR: fresh,
      });
      expect(made.code, made.err).toBe(0);
      expect(made.err).toBe(`Database: PGlite in ${fresh}`);
      const listed = await run(['list'], { LOG_LEVEL: 'silent', DATA_DIR: fresh });
      expect(listed.out).toContain('owner@example.com');
      expect((await run(['create', 'a@example.com', 'a', '--new-site', '--new-site'], password)).code).toBe(
        2,
      );
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('says when DATA_DIR is not set, for the ./data it looked in', async () => {
    const cwd = process.cwd();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'haversack-cli-cwd-'));
    process.chdir(dir);
    try {
      const refused = await run(['list'], { LOG_LEVEL: 'silent' });
      expect(refused.code).toBe(1);
      expect(refused.err).toBe(
        `haversack admin: no Haversack database in ${path.join(dir, 'data')} (DATA_DIR is not set: ./data): start the server there once, or set DATA_DIR (PGlite) or DATABASE_URL (PostgreSQL) to the server’s (or, for a new site, create its first admin with --new-site).`,
      );
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      process.chdir(cwd);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  if (postgres)
    it('refuses a PostgreSQL database without Haversack tables, and creates none', async () => {
      const name = `haversack_cli_empty_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: postgres.url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(postgres.url);
      url.pathname = `/${name}`;
      url.password = 's3cret';
      try {
        const refused = await run(['create', 'boss2@example.com', 'boss2'], {
          ...password,
          DATABASE_URL: url.toString(),
        });
        expect(refused.code).toBe(1);
        expect(refused.err).toBe(
          `haversack admin: no Haversack database in PostgreSQL ${url.username}@${url.hostname}:${url.port || '5432'}/${name} (it has no Haversack tables): start the server on it once, or set DATA_DIR (PGlite) or DATABASE_URL (PostgreSQL) to the server’s (or, for a new site, create its first admin with --new-site).`,
        );
        const checker = new pg.Client({ connectionString: url.toString() });
        await checker.connect();
        const { rows } = await checker.query(
          "SELECT count(*)::int AS tables FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
        );
        await checker.end();
        expect(rows).toEqual([{ tables: 0 }]);
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    });
});

describe('the database the command names', () => {
  it('is user@host:port/name, never the password', () => {
    expect(describePostgres('postgres://haversack:s3cret@db.example:5432/haversack?password=s3cret')).toBe(
      'PostgreSQL haversack@db.example:5432/haversack',
    );
    expect(describePostgres('postgresql://db.example/app')).toBe('PostgreSQL db.example:5432/app');
    expect(describePostgres('postgres://me@localhost/app?host=/run/postgresql')).toBe(
      'PostgreSQL me@/run/postgresql:5432/app',
    );
  });
});
