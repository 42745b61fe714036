/** Ends a start that cannot go on with one line on stderr, the reason the operator reads (DESIGN §7). */
export function fail(message: string): never {
  // One line, whatever the message held (a driver's error may span several).
  process.stderr.write(`haversack: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(1);
}
