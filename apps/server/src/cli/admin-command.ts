import { existsSync } from 'node:fs';
import path from 'node:path';
import { emailSchema, passwordSchema, usernameSchema } from '@haversack/contracts';
import { ConfigError, loadConfig } from '../config.js';
import { type DatabaseHandle, openPglite, openPostgres } from '../db/client.js';
import { diagnoseDataDir } from '../db/data-dir-diagnosis.js';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock.js';
import { othersDataDirAsRoot } from '../db/data-dir-owner.js';
import { forgetJwtSecret } from '../db/jwt-secret-fingerprint.js';
import { lastAppliedMigration, NewerDatabaseError } from '../db/migration-journal.js';
import { reasonOf } from '../lib/error-reason.js';
import {
  createAdminAccount,
  liftSuspension,
  listAdmins,
  setAdminFlag,
  UnknownAccountError,
} from '../modules/admin/admin-flag.js';

/**
 * `node apps/server/dist/cli/admin.js grant EMAIL | revoke EMAIL | unsuspend EMAIL | list | create …` (`npm run admin --`
 * in a development checkout): the one way to make (or unmake) an admin (DESIGN §10). Works on the
 * embedded PGlite database in DATA_DIR and on PostgreSQL (DATABASE_URL), once a server has started there.
 */

/**
 * What runs this command in every install: the built file, which a production install (`npm ci
 * --omit=dev`, without tsx) has too. `npm run admin --` works only where the dev dependencies are.
 */
const adminCommand = 'node apps/server/dist/cli/admin.js';

export const adminUsage = [
  `usage: ${adminCommand} <command>   (npm run admin -- <command> in a development checkout)`,
  '  grant EMAIL    give the account with this email the admin flag',
  '  revoke EMAIL   take the admin flag away (its admin sessions end at once)',
  '  unsuspend EMAIL  lift the suspension of the account with this email (an admin locked out, say)',
  '  list           list the admins (email, username, id, and "active" or "suspended since DATE")',
  '  create EMAIL USERNAME [--password-stdin] [--new-site]',
  '                 create a verified admin account; the password comes from ADMIN_PASSWORD or stdin;',
  '                 --new-site also makes the database when there is none yet (a fresh site)',
  '  forget-jwt-secret  forget which JWT_SECRET the servers on this database use, to replace it on purpose:',
  '                 stop every server first; the next one to start records its own (every session ends)',
].join('\n');

export interface CommandOutput {
  out(line: string): void;
  err(line: string): void;
}

type Parsed =
  | { command: 'grant' | 'revoke' | 'unsuspend'; email: string }
  | { command: 'list' }
  | { command: 'forget-jwt-secret' }
  | { command: 'create'; email: string; username: string; passwordFromStdin: boolean; newSite: boolean }
  | { error: string };

function parse(args: string[]): Parsed {
  const [command, email, ...rest] = args;
  if (command === 'list' && email === undefined) return { command };
  if (command === 'forget-jwt-secret' && email === undefined) return { command };
  if (command === 'create') {
    const [username, ...flags] = rest;
    const known = ['--password-stdin', '--new-site'];
    if (
      !email ||
      !username ||
      flags.some((flag) => !known.includes(flag)) ||
      new Set(flags).size !== flags.length
    )
      return { error: 'usage: create EMAIL USERNAME [--password-stdin] [--new-site]' };
    const checkedEmail = emailSchema.safeParse(email);
    if (!checkedEmail.success) return { error: `"${email}" is not an email address.` };
    const checkedName = usernameSchema.safeParse(username);
    if (!checkedName.success) return { error: checkedName.error.issues[0]?.message ?? 'bad username' };
    return {
      command,
      email: checkedEmail.data,
      username: checkedName.data,
      passwordFromStdin: flags.includes('--password-stdin'),
      newSite: flags.includes('--new-site'),
    };
  }
  if (
    (command === 'grant' || command === 'revoke' || command === 'unsuspend') &&
    email &&
    rest.length === 0
  ) {
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) return { error: `"${email}" is not an email address.` };
    return { command, email };
  }
  return { error: command ? `unknown or incomplete command: ${args.join(' ')}` : 'no command given' };
}

/** The database a URL names, for a person: `user@host:port/name`, never its password. */
export function describePostgres(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  // As node-postgres reads it: ?host= (a unix socket such as /run/postgresql) wins over the URL's host, and
  // the database defaults to the user's name.
  const host = url.searchParams.get('host') || decodeURIComponent(url.hostname) || 'localhost';
  const user = decodeURIComponent(url.username);
  const name = decodeURIComponent(url.pathname.replace(/^\//, '')) || user;
  return `PostgreSQL ${user ? `${user}@` : ''}${host}:${url.port || '5432'}/${name}`;
}

const elsewhere = 'or set DATA_DIR (PGlite) or DATABASE_URL (PostgreSQL) to the server’s';

/**
 * Opens the database the server would open; with PGlite, only while the server is not running. Only a
 * database a Haversack server has started on: a typo in DATA_DIR or DATABASE_URL, or a shell without them,
 * must not make a new database that the command then reports success in while the server's is untouched.
 */
function notTheOwner(dataDir: string): string | null {
  const owner = othersDataDirAsRoot(dataDir);
  if (owner === null) return null;
  return `${dataDir} belongs to uid ${owner}, and this command runs as root: run it as the user that runs the server (e.g. sudo -u "#${owner}" ...), or the server could not open the files it would leave.`;
}

async function openDatabase(
  env: NodeJS.ProcessEnv,
  /** `create --new-site`: a fresh site's first admin, on a database made (and migrated) here. */
  newSite: boolean,
): Promise<{ database: DatabaseHandle; description: string; release: () => void } | { error: string }> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return { error: error.message };
    throw error;
  }
  if (config.databaseUrl) {
    const description = describePostgres(config.databaseUrl);
    let database: DatabaseHandle;
    try {
      database = await openPostgres(config.databaseUrl, { max: 1 });
    } catch (error) {
      return {
        error: `cannot reach the database at DATABASE_URL (${description}): ${reasonOf(error)}`,
      };
    }
    const found = await haversackSchemaIn(database, description, newSite);
    if (found !== true) {
      await database.close();
      return found;
    }
    return { database, description, release: () => {} };
  }
  const dataDir = path.resolve(config.dataDir);
  const description = `PGlite in ${dataDir}`;
  const pgliteDir = path.join(dataDir, 'pglite');
  // Before the lock, which would make DATA_DIR; PGlite would make (and initialise) its directory.
  if (!newSite && !existsSync(path.join(pgliteDir, 'PG_VERSION'))) {
    return {
      error: `no Haversack database in ${dataDir} (DATA_DIR${env.DATA_DIR?.trim() ? '' : ' is not set: ./data'}): start the server there once, ${elsewhere} (or, for a new site, create its first admin with --new-site).`,
    };
  }
  const wrongUser = notTheOwner(dataDir);
  if (wrongUser) return { error: wrongUser };
  let release: () => void;
  try {
    release = lockDataDir(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    // DESIGN §9: PGlite lets one process at a time open its directory, and the server holds it.
    const pid = /\(pid (\d+)\)/.exec(error.message)?.[1];
    return {
      error: `the Haversack server${pid ? ` (pid ${pid})` : ''} is using ${dataDir}: stop it, run this command, then start the server again.`,
    };
  }
  let database: DatabaseHandle;
  try {
    database = await openPglite({ dataDir: pgliteDir });
  } catch (error) {
    release();
    return {
      error: `cannot open the database in ${dataDir}: ${diagnoseDataDir(dataDir) ?? reasonOf(error)}`,
    };
  }
  const found = await haversackSchemaIn(database, description, newSite);
  if (found !== true) {
    await database.close();
    release();
    return found;
  }
  return { database, description, release };
}

/** Whether a server has migrated this database (and no newer one than this build); else why not. */
async function haversackSchemaIn(
  database: DatabaseHandle,
  description: string,
  newSite: boolean,
): Promise<true | { error: string }> {
  try {
    if ((await lastAppliedMigration(database.db)) !== null || newSite) return true;
  } catch (error) {
    if (error instanceof NewerDatabaseError) return { error: `${description}: ${error.message}` };
    throw error;
  }
  return {
    error: `no Haversack database in ${description} (it has no Haversack tables): start the server on it once, ${elsewhere} (or, for a new site, create its first admin with --new-site).`,
  };
}

/** Runs the command; returns the process exit code. `readStdin` answers what was piped in. */
export async function runAdminCommand(
  args: string[],
  env: NodeJS.ProcessEnv,
  output: CommandOutput,
  readStdin: () => Promise<string> = async () => '',
): Promise<number> {
  // Asked for, the usage is the answer, not an error.
  if (args.length === 1 && ['help', '--help', '-h'].includes(args[0] ?? '')) {
    output.out(adminUsage);
    return 0;
  }
  const parsed = parse(args);
  if ('error' in parsed) {
    output.err(`haversack admin: ${parsed.error}`);
    output.err(adminUsage);
    return 2;
  }
  let password = '';
  if (parsed.command === 'create') {
    // Never from the command line: it would stay in the shell history and show in `ps`.
    password = parsed.passwordFromStdin
      ? (await readStdin()).replace(/\r?\n$/, '')
      : (env.ADMIN_PASSWORD ?? '');
    const checked = passwordSchema.safeParse(password);
    if (!checked.success) {
      output.err(
        `haversack admin: ${password ? checked.error.issues[0]?.message : 'give the password in ADMIN_PASSWORD or with --password-stdin'}`,
      );
      return 2;
    }
  }
  const opened = await openDatabase(env, parsed.command === 'create' && parsed.newSite);
  if ('error' in opened) {
    output.err(`haversack admin: ${opened.error}`);
    return 1;
  }
  const { database, description, release } = opened;
  // On stderr: the command's answer on stdout stays what a script reads (`list`).
  output.err(`Database: ${description}`);
  try {
    // A database migrated by an older build: migrating is what the server of this build would do at start.
    await database.migrate();
    if (parsed.command === 'list') {
      const admins = await listAdmins(database.db);
      if (admins.length === 0) output.out(`No admins yet. Make one with: ${adminCommand} grant EMAIL`);
      // A suspended admin cannot sign in: said here, with the command that lets them back in.
      for (const admin of admins)
        output.out(
          `${admin.email}\t${admin.username}\t${admin.id}\t${admin.suspendedAt ? `suspended since ${admin.suspendedAt.toISOString()}` : 'active'}`,
        );
      if (admins.some((admin) => admin.suspendedAt))
        output.err(`A suspended admin cannot sign in; lift it with: ${adminCommand} unsuspend EMAIL`);
      return 0;
    }
    if (parsed.command === 'forget-jwt-secret') {
      output.out(
        (await forgetJwtSecret(database.db))
          ? 'The JWT_SECRET fingerprint is forgotten: the next server to start records its own; start every other one with the same JWT_SECRET.'
          : 'No JWT_SECRET fingerprint was recorded; nothing changed.',
      );
      return 0;
    }
    if (parsed.command === 'unsuspend') {
      const { account, changed } = await liftSuspension(database.db, parsed.email);
      output.out(
        changed
          ? `${account.email} is no longer suspended and can sign in again.`
          : `${account.email} was not suspended; nothing changed.`,
      );
      return 0;
    }
    if (parsed.command === 'create') {
      const account = await createAdminAccount(database.db, {
        email: parsed.email,
        username: parsed.username,
        password,
      });
      output.out(`${account.email} (${account.username}) is created and is an admin.`);
      return 0;
    }
    const grant = parsed.command === 'grant';
    const { account, changed } = await setAdminFlag(database.db, parsed.email, grant);
    if (!changed)
      output.out(`${account.email} ${grant ? 'is already' : 'was not'} an admin; nothing changed.`);
    else output.out(`${account.email} ${grant ? 'is now an admin' : 'is no longer an admin'}.`);
    return 0;
  } catch (error) {
    if (error instanceof UnknownAccountError || error instanceof NewerDatabaseError) {
      output.err(`haversack admin: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
    release();
  }
}
