import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccessTokens } from './access-tokens.js';

const claims = { userId: randomUUID(), sessionId: randomUUID() };
const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: { code?: string }) => error.code,
  );

describe('AccessTokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('accepts its own token again and again with the same claims', async () => {
    const tokens = new AccessTokens('secret-one');
    const { token, expiresAt } = await tokens.issue(claims);
    const first = await tokens.verify(token);
    const again = await tokens.verify(token);
    expect(first).toEqual({ ...claims, expiresAt });
    expect(again).toEqual(first);
  });

  it('refuses a remembered token once it expires, as jose would', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T00:00:00.500Z'));
    const tokens = new AccessTokens('secret-one', 60);
    const { token } = await tokens.issue(claims);
    await tokens.verify(token);
    vi.setSystemTime(new Date('2026-11-24T00:00:59.999Z'));
    expect(await code(tokens.verify(token))).toBe('accepted');
    // exp is 00:01:00: at that second the token is expired (jose: exp <= now).
    vi.setSystemTime(new Date('2026-11-24T00:01:00.000Z'));
    expect(await code(tokens.verify(token))).toBe('EXPIRED_TOKEN');
    expect(await code(tokens.verify(token))).toBe('EXPIRED_TOKEN');
    expect(await code(new AccessTokens('secret-one', 60).verify(token))).toBe('EXPIRED_TOKEN');
  });

  it('refuses a changed signature or payload even after the token was accepted', async () => {
    const tokens = new AccessTokens('secret-one');
    const { token } = await tokens.issue(claims);
    await tokens.verify(token);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'AB' : 'AA'}`;
    expect(await code(tokens.verify(`${header}.${payload}.${flipped}`))).toBe('INVALID_TOKEN');
    const other = Buffer.from(JSON.stringify({ sub: randomUUID(), sid: claims.sessionId })).toString(
      'base64url',
    );
    expect(await code(tokens.verify(`${header}.${other}.${signature}`))).toBe('INVALID_TOKEN');
    expect(await code(new AccessTokens('secret-two').verify(token))).toBe('INVALID_TOKEN');
  });
});
