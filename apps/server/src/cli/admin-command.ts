import path from 'node:path';
import { emailSchema, passwordSchema, usernameSchema } from '@haversack/contracts';
import { ConfigError, loadConfig } from '../config.js';
import { type DatabaseHandle, openPglite, openPostgres } from '../db/client.js';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock.js';
import {
  createAdminAccount,
  listAdmins,
  setAdminFlag,
  UnknownAccountError,
} from '../modules/admin/admin-flag.js';

/**
 * `npm run admin -- grant EMAIL | revoke EMAIL | list`: the one way to make (or unmake) an admin
 * (DESIGN §10). Works on the embedded PGlite database in DATA_DIR and on PostgreSQL (DATABASE_URL).
 */

export const adminUsage = [
  'usage: npm run admin -- <command>',
  '  grant EMAIL    give the account with this e-mail the admin flag',
  '  revoke EMAIL   take the admin flag away (its admin sessions end at once)',
  '  list           list the admins',
  '  create EMAIL USERNAME [--password-stdin]',
  '                 create a verified admin account; the password comes from ADMIN_PASSWORD or stdin',
].join('\n');

export interface CommandOutput {
  out(line: string): void;
  err(line: string): void;
}

type Parsed =
  | { command: 'grant' | 'revoke'; email: string }
  | { command: 'list' }
  | { command: 'create'; email: string; username: string; passwordFromStdin: boolean }
  | { error: string };

function parse(args: string[]): Parsed {
  const [command, email, ...rest] = args;
  if (command === 'list' && email === undefined) return { command };
  if (command === 'create') {
    const [username, flag, ...extra] = rest;
    if (!email || !username || extra.length > 0 || (flag !== undefined && flag !== '--password-stdin'))
      return { error: 'usage: create EMAIL USERNAME [--password-stdin]' };
    const checkedEmail = emailSchema.safeParse(email);
    if (!checkedEmail.success) return { error: `"${email}" is not an e-mail address.` };
    const checkedName = usernameSchema.safeParse(username);
    if (!checkedName.success) return { error: checkedName.error.issues[0]?.message ?? 'bad username' };
    return {
      command,
      email: checkedEmail.data,
      username: checkedName.data,
      passwordFromStdin: flag !== undefined,
    };
  }
  if ((command === 'grant' || command === 'revoke') && email && rest.length === 0) {
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) return { error: `"${email}" is not an e-mail address.` };
    return { command, email };
  }
  return { error: command ? `unknown or incomplete command: ${args.join(' ')}` : 'no command given' };
}

/** Opens the database the server would open; with PGlite, only while the server is not running. */
async function openDatabase(
  env: NodeJS.ProcessEnv,
): Promise<{ database: DatabaseHandle; release: () => void } | { error: string }> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return { error: error.message };
    throw error;
  }
  if (config.databaseUrl) {
    try {
      return { database: await openPostgres(config.databaseUrl, { max: 1 }), release: () => {} };
    } catch (error) {
      return { error: `cannot reach the database at DATABASE_URL: ${(error as Error).message}` };
    }
  }
  const dataDir = path.resolve(config.dataDir);
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
  try {
    return { database: await openPglite({ dataDir: path.join(dataDir, 'pglite') }), release };
  } catch (error) {
    release();
    return { error: `cannot open the database in ${dataDir}: ${(error as Error).message}` };
  }
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
  const opened = await openDatabase(env);
  if ('error' in opened) {
    output.err(`haversack admin: ${opened.error}`);
    return 1;
  }
  const { database, release } = opened;
  try {
    // A database the server never started on has no tables yet; migrating is what the server would do.
    await database.migrate();
    if (parsed.command === 'list') {
      const admins = await listAdmins(database.db);
      if (admins.length === 0) output.out('No admins yet. Make one with: npm run admin -- grant EMAIL');
      for (const admin of admins) output.out(`${admin.email}\t${admin.username}\t${admin.id}`);
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
    if (error instanceof UnknownAccountError) {
      output.err(`haversack admin: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
    release();
  }
}
