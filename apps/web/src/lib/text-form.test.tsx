import { Button, MantineProvider, PasswordInput, TextInput } from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { theme } from '../app/theme';
import { markInvalidFields, useFocusFirstError } from './form-feedback';
import { useTextForm } from './text-form';

interface SignIn extends Record<string, string> {
  email: string;
  password: string;
}

const validate = (values: SignIn): FormErrors => ({
  email: values.email.trim() ? null : 'Email is required',
  password: values.password ? undefined : 'Password is required',
});

/** What a test sees of one form: its handlers' calls and, on demand, the page. */
interface Observed {
  log: string[];
  settle: () => void;
}

function SignInForm({ kind, observed }: { kind: 'mantine' | 'text'; observed: Observed }) {
  const options = {
    initialValues: { email: '', password: '' },
    validate,
    enhanceGetInputProps: markInvalidFields,
  };
  // One of the two hooks, for the whole life of the component (the test renders each kind apart).
  const form = useFocusFirstError(
    // biome-ignore lint/correctness/useHookAtTopLevel: `kind` never changes during a render's life.
    kind === 'mantine' ? useForm<SignIn>({ mode: 'controlled', ...options }) : useTextForm<SignIn>(options),
  );
  const submit = form.onSubmit(
    (values) => {
      observed.log.push(`submitted ${JSON.stringify(values)}`);
      return new Promise<void>((resolve) => {
        observed.settle = () => {
          form.setErrors({ email: 'Invalid email or password', password: null });
          resolve();
        };
      });
    },
    (errors, values) => observed.log.push(`refused ${JSON.stringify(errors)} ${JSON.stringify(values)}`),
  );
  return (
    <form onSubmit={submit} noValidate aria-label="Sign in">
      <TextInput label="Email" required {...form.getInputProps('email')} />
      <PasswordInput label="Password" required {...form.getInputProps('password')} />
      <Button type="submit" loading={form.submitting}>
        Sign In
      </Button>
      <button type="button" onClick={() => form.setFieldError('password', 'Too many attempts')}>
        Refuse
      </button>
    </form>
  );
}

/** The page as a person and a screen reader meet it: values, errors, invalid marks, focus, the busy button. */
function page(): string[] {
  const fields = [screen.getByLabelText(/^Email/), screen.getByLabelText(/^Password/)] as HTMLInputElement[];
  return [
    ...fields.map(
      (field) =>
        `${field.getAttribute('data-path')}=${field.value} invalid=${field.getAttribute('aria-invalid')} focus=${field === document.activeElement} described=${field.getAttribute('aria-describedby') ? document.getElementById(field.getAttribute('aria-describedby')?.split(' ')[0] ?? '')?.textContent : ''}`,
    ),
    `busy=${screen.getByRole('button', { name: 'Sign In' }).getAttribute('data-loading')}`,
    `errors=${Array.from(document.querySelectorAll('.mantine-InputWrapper-error'), (error) => error.textContent).join('|')}`,
  ];
}

async function scenario(kind: 'mantine' | 'text'): Promise<string[]> {
  const observed: Observed = { log: [], settle: () => undefined };
  const view = render(
    <MantineProvider env="test" theme={theme}>
      <SignInForm kind={kind} observed={observed} />
    </MantineProvider>,
  );
  const user = userEvent.setup();
  const steps: string[] = [];
  const look = (step: string) => steps.push(step, ...page(), ...observed.log.splice(0));

  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  look('blank submit');
  await user.type(screen.getByLabelText(/^Email/), 'a');
  look('typed in the email');
  await user.keyboard('{Enter}');
  look('enter with the password blank');
  await user.type(screen.getByLabelText(/^Password/), 'Secret123');
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  look('submitted, answer pending');
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  look('second submit while pending');
  await act(async () => observed.settle());
  look('refused by the server');
  await user.type(screen.getByLabelText(/^Email/), 'b');
  look('email changed after the refusal');
  await user.click(screen.getByRole('button', { name: 'Refuse' }));
  look('a field error set by hand');
  view.unmount();
  return steps;
}

describe('useTextForm', () => {
  it('behaves as @mantine/form in controlled mode for what the sign-in page does with it', async () => {
    const mantine = await scenario('mantine');
    const text = await scenario('text');
    expect(text).toEqual(mantine);
    // The scenario saw what it meant to: refusals, a busy button, the server's error and its clearing.
    expect(mantine).toContain('busy=true');
    expect(mantine).toContain('errors=Email is required|Password is required');
    expect(mantine).toContain('errors=Invalid email or password');
    expect(mantine.filter((line) => line.startsWith('submitted {'))).toHaveLength(1);
  });
});
