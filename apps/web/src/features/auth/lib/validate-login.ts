import { emailMessage, fieldMessages, isSafeText, type LoginBody } from '@haversack/contracts';
import type { FormErrors } from '@mantine/form';

/**
 * The sign-in form's check, the rules of the contracts' loginBodySchema written out without zod, so that
 * /login does not load zod to show its form (issue 13 §1). validate-login.test.ts holds it to the schema:
 * the same first message per field for every case.
 */
export function validateLogin(values: LoginBody): FormErrors {
  const errors: FormErrors = {};
  const email = fieldError(
    values.email,
    { required: 'Email is required', tooLong: emailMessage },
    254,
    (value) => value.trim(),
  );
  const password = fieldError(
    values.password,
    { required: 'Password is required', tooLong: 'Password must be at most 200 characters' },
    200,
    (value) => value,
  );
  if (email) errors.email = email;
  if (password) errors.password = password;
  return errors;
}

function fieldError(
  value: unknown,
  messages: { required: string; tooLong: string },
  maxLength: number,
  normalise: (value: string) => string,
): string | null {
  if (typeof value !== 'string') return messages.required;
  if (!isSafeText(value)) return fieldMessages.unsafeText;
  const normalised = normalise(value);
  if (normalised.length < 1) return messages.required;
  return normalised.length > maxLength ? messages.tooLong : null;
}
