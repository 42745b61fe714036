import { describe, expect, it } from 'vitest';
import { passwordMessages, passwordSchema } from './auth.js';

const problems = (password: string) => {
  const parsed = passwordSchema.safeParse(password);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
};

describe('passwordSchema', () => {
  it('counts upper- and lower-case letters of every script, not only A to Z', () => {
    expect(problems('ПАРОЛЬпароль123')).toEqual([]);
    expect(problems('ΩMEGAωmega42')).toEqual([]);
    expect(problems('Dragons1')).toEqual([]);
  });

  it('still asks for what is missing', () => {
    expect(problems('пароль123')).toEqual([passwordMessages.uppercase]);
    expect(problems('ПАРОЛЬ123')).toEqual([passwordMessages.lowercase]);
    expect(problems('Парольное')).toEqual([passwordMessages.digit]);
  });
});
