import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { appUrlAdvice } from './app-url-advice.js';

function ipv4(address: string, internal = false): NetworkInterfaceInfo {
  return {
    address,
    netmask: '255.255.255.0',
    family: 'IPv4',
    mac: '00:00:00:00:00:00',
    internal,
    cidr: null,
  };
}

const laptop = { lo: [ipv4('127.0.0.1', true)], wlan0: [ipv4('192.168.1.20')], eth0: [ipv4('10.0.0.5')] };

describe('appUrlAdvice', () => {
  it('says which APP_URL to set when other machines can connect but the links name localhost', () => {
    expect(appUrlAdvice({ host: '0.0.0.0', port: 3000, appUrl: 'http://localhost:3000' }, laptop)).toBe(
      'APP_URL is http://localhost:3000, which other machines cannot open: share links, mailed links and ' +
        'billing returns will point there. Set APP_URL=http://192.168.1.20:3000 (this machine is reachable at ' +
        'http://192.168.1.20:3000, http://10.0.0.5:3000).',
    );
    expect(appUrlAdvice({ host: '::', port: 8080, appUrl: 'http://127.0.0.1:8080' }, laptop)).toContain(
      'Set APP_URL=http://192.168.1.20:8080',
    );
  });

  it('names a placeholder when the machine has no network address', () => {
    expect(
      appUrlAdvice(
        { host: '0.0.0.0', port: 3000, appUrl: 'http://localhost:3000' },
        { lo: [ipv4('127.0.0.1', true)] },
      ),
    ).toContain("Set APP_URL=http://<this machine's address>:3000.");
  });

  it('stays quiet when only this machine can connect, or when APP_URL names a reachable address', () => {
    expect(
      appUrlAdvice({ host: '127.0.0.1', port: 3000, appUrl: 'http://localhost:3000' }, laptop),
    ).toBeNull();
    expect(
      appUrlAdvice({ host: 'localhost', port: 3000, appUrl: 'http://localhost:3000' }, laptop),
    ).toBeNull();
    expect(
      appUrlAdvice({ host: '0.0.0.0', port: 3000, appUrl: 'http://192.168.1.20:3000' }, laptop),
    ).toBeNull();
    expect(
      appUrlAdvice({ host: '0.0.0.0', port: 3000, appUrl: 'https://haversack.example.com' }, laptop),
    ).toBeNull();
  });

  // Mail review: behind a proxy on this machine, with a real mail server, every mailed link named localhost.
  it('says that mailed links will not open when mail leaves this machine but APP_URL names its loopback', () => {
    const proxied = { host: '127.0.0.1', port: 3000, appUrl: 'http://localhost:3000' };
    expect(appUrlAdvice({ ...proxied, smtpUrl: 'smtps://user:secret@smtp.example.com:465' }, laptop)).toBe(
      'APP_URL is http://localhost:3000, but mail goes out through smtp.example.com: the links of every ' +
        'mail (password reset, email confirmation, undo, unsubscribe) will point there, where their readers ' +
        'cannot open them. Set APP_URL to the address people open the site at (e.g. https://haversack.example.com).',
    );
    expect(
      appUrlAdvice({ ...proxied, appUrl: 'http://127.0.0.1:3000', smtpUrl: 'smtp://mail.lan' }, laptop),
    ).toContain('APP_URL is http://127.0.0.1:3000, but mail goes out through mail.lan:');
  });

  it('stays quiet about mail caught on this machine, written to files, or with links to a public address', () => {
    const local = { host: '127.0.0.1', port: 3000, appUrl: 'http://localhost:3000' };
    expect(appUrlAdvice({ ...local, smtpUrl: 'smtp://localhost:1025' }, laptop)).toBeNull();
    expect(appUrlAdvice({ ...local, smtpUrl: 'smtp://127.0.0.1:1025' }, laptop)).toBeNull();
    expect(appUrlAdvice({ ...local, smtpUrl: undefined }, laptop)).toBeNull();
    expect(
      appUrlAdvice(
        { ...local, appUrl: 'https://haversack.example.com', smtpUrl: 'smtps://smtp.example.com' },
        laptop,
      ),
    ).toBeNull();
  });
});
