// The child process of openPreparedPglite (prepare.ts): initdb on an empty directory, the migrations and
// the seed, on the PGlite directory given as its argument; then it exits and its memory goes with it.
import { reasonOf } from '../lib/error-reason.js';
import { openPglite } from './client.js';
import { MigrationFailedError } from './migration-journal.js';
import {
  compilePgliteForSmallMemory,
  type Preparation,
  type PreparerMessage,
  prepareDatabase,
} from './prepare.js';

// The server that started this process holds the DATA_DIR lock: without it, stop rather than write on.
process.on('disconnect', () => process.exit(1));

/** Tells the server what happened, then exits: `process.exit` right after `send` could lose the message. */
function tell(message: PreparerMessage, code: number): void {
  if (process.send) process.send(message, () => process.exit(code));
  else process.exit(code);
}

async function prepare(dataDir: string): Promise<Preparation> {
  compilePgliteForSmallMemory();
  const database = await openPglite({ dataDir });
  try {
    return await prepareDatabase(database);
  } finally {
    await database.close();
  }
}

const dataDir = process.argv[2];
if (!dataDir) {
  process.stderr.write('usage: prepare-pglite <PGlite data directory>\n');
  process.exit(2);
}
prepare(dataDir).then(
  (prepared) => tell({ prepared }, 0),
  (error: unknown) => {
    if (error instanceof MigrationFailedError) {
      const { migrations, reason } = error;
      tell({ migrationFailed: { migrations, reason } }, 1);
      return;
    }
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : reasonOf(error)}\n`);
    process.exit(1);
  },
);
