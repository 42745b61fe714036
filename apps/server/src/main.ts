import path from 'node:path';
import { type Config, ConfigError, loadConfig } from './config.js';
import { othersDataDirAsRoot } from './db/data-dir-owner.js';
import { fail } from './lib/fail.js';

const usage = [
  'usage: node apps/server/dist/main.js',
  '  Starts the Haversack server: the web app, the API and the real-time socket on one port. It opens (and',
  '  creates or upgrades) the database: PGlite in DATA_DIR, or PostgreSQL at DATABASE_URL.',
  '  It takes no arguments: it is configured by environment variables (PORT, DATA_DIR, DATABASE_URL,',
  '  JWT_SECRET, REDIS_URL, APP_URL, ...), listed in README, "Configuration", and docs/operations.md.',
  '  Admins are made with the admin command: node apps/server/dist/cli/admin.js --help',
].join('\n');

async function main() {
  // Before anything else, above all the database: asking for help must not create or upgrade one.
  const [argument] = process.argv.slice(2);
  if (argument === '--help' || argument === '-h') {
    process.stdout.write(`${usage}\n`);
    return;
  }
  if (argument !== undefined) {
    process.stderr.write(
      `haversack: unknown argument "${argument}": the server takes no arguments, only environment variables (see --help)\n`,
    );
    process.exit(2);
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  const dataDir = path.resolve(config.dataDir);
  const owner = othersDataDirAsRoot(dataDir);
  if (owner !== null)
    fail(
      `${dataDir} belongs to uid ${owner}, and the server runs as root: start it as that user (e.g. sudo -u "#${owner}" npm start), or it would leave files there that user's server cannot open.`,
    );
  // Only now the rest of the server (the app, the database layer and their packages): the answers above
  // are given in a fraction of the time a start takes to load them.
  const { start } = await import('./start.js');
  await start(config);
}

void main();
