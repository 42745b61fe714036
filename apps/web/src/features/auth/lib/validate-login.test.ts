import { loginBodySchema } from '@haversack/contracts';
import { describe, expect, it } from 'vitest';
import { validateWith } from '../../../lib/forms';
import { validateLogin } from './validate-login';

const emails = ['', '   ', 'ranger@example.com', ' ranger@example.com ', 'a'.repeat(254), 'a'.repeat(255)];
const passwords = ['', ' ', 'Secret123', 'p'.repeat(200), 'p'.repeat(201)];
const unsafe = ['a\u0000b', '\uD800', 'x\uDC00', ` ${'a'.repeat(300)}\u0000`];

describe('validateLogin', () => {
  it('gives the first message of loginBodySchema for every field, without zod', () => {
    const bySchema = validateWith(loginBodySchema);
    const cases = [
      ...emails.flatMap((email) => passwords.map((password) => ({ email, password }))),
      ...unsafe.flatMap((text) => [
        { email: text, password: 'Secret123' },
        { email: 'ranger@example.com', password: text },
        { email: text, password: '' },
        { email: '', password: text },
      ]),
    ];
    for (const values of cases)
      expect(validateLogin(values), JSON.stringify(values)).toEqual(bySchema(values));
  });

  it('names the required fields and passes a filled form', () => {
    expect(validateLogin({ email: ' ', password: '' })).toEqual({
      email: 'Email is required',
      password: 'Password is required',
    });
    expect(validateLogin({ email: 'ranger@example.com', password: 'Secret123' })).toEqual({});
  });
});
