import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { hashPassword, passwordHashCost, verifyPassword } from './passwords.js';

const composed = 'Caf\u00e9Latte9';
const decomposed = 'Cafe\u0301Latte9';

describe('passwords', () => {
  it('opens with the same word typed composed or decomposed', async () => {
    const stored = await hashPassword(composed);
    expect(await verifyPassword(stored, decomposed)).toBe(true);
    expect(await verifyPassword(stored, composed)).toBe(true);
    const fromTheOtherKeyboard = await hashPassword(decomposed);
    expect(await verifyPassword(fromTheOtherKeyboard, composed)).toBe(true);
    expect(await verifyPassword(stored, 'CafeLatte9')).toBe(false);
  });

  it('still opens a hash made of a decomposed password before passwords were composed', async () => {
    const legacy = await hash(decomposed, { memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    expect(await verifyPassword(legacy, decomposed)).toBe(true);
  });

  it("hashes at OWASP's argon2id baseline unless a test lowered the cost", async () => {
    expect(passwordHashCost).toEqual({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    // The module as the server loads it: this file's setup (src/test/setup.ts) lowered the cost of the one
    // the other tests share. A query makes a copy of its own, leaving the modules other files share alone
    // (vi.resetModules would reload them all in this shared worker).
    const fresh = './passwords.js?as-the-server-loads-it';
    const asTheServerLoadsIt: typeof import('./passwords.js') = await import(/* @vite-ignore */ fresh);
    const stored = await asTheServerLoadsIt.hashPassword(composed);
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await asTheServerLoadsIt.verifyPassword(stored, composed)).toBe(true);
  });

  it('hashes at the lowered cost in the other tests, which a hash of any cost verifies', async () => {
    const stored = await hashPassword(composed);
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    const atTheBaseline = await hash(composed, passwordHashCost);
    expect(await verifyPassword(atTheBaseline, composed)).toBe(true);
  });
});
