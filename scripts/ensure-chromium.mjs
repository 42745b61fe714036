// Playwright must drive Debian's Chromium (no browser download works here). Install it as Playwright's
// --with-deps would when we are root on Debian; otherwise say in one line what to install.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function ensureChromium() {
  if (existsSync(chromiumPath)) return chromiumPath;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log('Chromium is missing: installing Debian’s chromium package (one time)...');
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
      stdio: 'inherit',
    });
    if (existsSync(chromiumPath)) return chromiumPath;
  }
  console.error(
    `Chromium not found at ${chromiumPath}: install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH.`,
  );
  process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) ensureChromium();
