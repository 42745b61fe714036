import { runAdminCommand } from './admin-command.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

// Entry of `npm run admin -- ...` (see admin-command.ts and the README).
runAdminCommand(
  process.argv.slice(2),
  process.env,
  {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  },
  readStdin,
).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`haversack admin: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
