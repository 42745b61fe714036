import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';

function mailDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set: run through e2e/playwright.config.ts');
  return path.join(dir, 'mail');
}

function decode(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

function linksTo(address: string, route: string): string[] {
  let files: string[];
  try {
    files = readdirSync(mailDir()).sort();
  } catch {
    return [];
  }
  const pattern = new RegExp(`https?://[^\\s"<]+/${route}[^\\s"<]*`);
  return files
    .map((file) => decode(readFileSync(path.join(mailDir(), file), 'utf8')))
    .filter((raw) => new RegExp(`^To: .*${address.replace(/[.+]/g, '\\$&')}`, 'mi').test(raw))
    .map((raw) => pattern.exec(raw)?.[0])
    .filter((link): link is string => link !== undefined);
}

/** Waits for the server to write a mail to `address` with a link to `route`, and returns the newest link. */
export async function waitForMailLink(address: string, route: string, previous = 0): Promise<string> {
  let links: string[] = [];
  await expect
    .poll(
      () => {
        links = linksTo(address, route);
        return links.length;
      },
      { message: `a ${route} mail to ${address}` },
    )
    .toBeGreaterThan(previous);
  const link = links.at(-1);
  if (!link) throw new Error('unreachable: poll passed without a link');
  return link;
}

export function countMailLinks(address: string, route: string): number {
  return linksTo(address, route).length;
}
