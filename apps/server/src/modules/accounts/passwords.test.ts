import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';

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
});
