import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { isStaticAssetRequest } from '../plugins/web-app.js';
import { prettyLines, resolveLogFormat } from './log-format.js';
import { loggerOptions } from './logger.js';
import { createMailer } from './mailer.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function collector() {
  const lines: string[] = [];
  return {
    lines,
    sink: {
      write(line: string) {
        lines.push(line);
        return true;
      },
    },
  };
}

describe('log format (issue 12)', () => {
  it('is readable on a development terminal and JSON anywhere else, unless LOG_FORMAT says', () => {
    expect(resolveLogFormat(undefined, { isTty: true, nodeEnv: 'development' })).toBe('pretty');
    expect(resolveLogFormat(undefined, { isTty: false, nodeEnv: 'development' })).toBe('json');
    expect(resolveLogFormat(undefined, { isTty: true, nodeEnv: 'production' })).toBe('json');
    expect(resolveLogFormat(undefined, { isTty: true, nodeEnv: 'test' })).toBe('json');
    expect(resolveLogFormat('json', { isTty: true, nodeEnv: 'development' })).toBe('json');
    expect(resolveLogFormat('pretty', { isTty: false, nodeEnv: 'production' })).toBe('pretty');
  });

  it('prints a readable line, still redacted', async () => {
    const { lines, sink } = collector();
    const log = pino(loggerOptions('info'), await prettyLines(sink, false));
    log.info({ token: 'secret-token-value', to: 'a@b.c' }, 'server listening');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: server listening/);
    expect(lines[0]).not.toContain('secret-token-value');
    expect(lines[0]?.startsWith('{')).toBe(false);
  });

  it('knows the web app’s files from pages and the API', () => {
    const get = (url: string) => isStaticAssetRequest({ method: 'GET', url });
    expect(get('/assets/index-Bx12.js')).toBe(true);
    expect(get('/favicon.ico')).toBe(true);
    expect(get('/manifest.webmanifest?v=2')).toBe(true);
    expect(get('/parties/42')).toBe(false);
    expect(get('/api/v1/items/export.csv')).toBe(false);
    expect(isStaticAssetRequest({ method: 'POST', url: '/assets/x.js' })).toBe(false);
  });
});

describe('the mailed link without a mail server (issue 12)', () => {
  const mail = {
    to: 'a@b.c',
    subject: 'Confirm your email address for Haversack',
    text: 'Open http://localhost:3000/verify-email?token=abcdef123456',
    html: '<p>Open the link</p>',
    link: 'http://localhost:3000/verify-email?token=abcdef123456',
  };

  async function send(showLink?: (line: string) => void) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-mail-'));
    dirs.push(dataDir);
    let logged = '';
    const log = pino(
      loggerOptions('info'),
      new Writable({
        write(chunk, _encoding, callback) {
          logged += chunk.toString();
          callback();
        },
      }),
    );
    const mailer = createMailer({
      from: 'Haversack <no-reply@haversack.local>',
      dataDir,
      log,
      ...(showLink ? { showLink } : {}),
    });
    await mailer.send(mail);
    mailer.close();
    return logged;
  }

  it('is printed plainly on a line of its own when the terminal asks for it, and never logged', async () => {
    const shown: string[] = [];
    const logged = await send((line) => shown.push(line));
    expect(shown).toEqual([`Confirm your email address for Haversack — link for a@b.c: ${mail.link}`]);
    expect(logged).toContain('mail written to file');
    expect(logged).not.toContain('abcdef123456');
  });

  it('is not printed at all otherwise', async () => {
    const logged = await send();
    expect(logged).not.toContain('abcdef123456');
  });
});
