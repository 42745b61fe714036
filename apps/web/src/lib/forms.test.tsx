import { MantineProvider, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { theme } from '../app/theme';
import { markInvalidFields, useFocusFirstError } from './forms';

/** A form whose `name` rule refuses a blank; `label` names it on the page. */
function NameForm({ label }: { label: string }) {
  const form = useFocusFirstError(
    useForm<{ name: string }>({
      initialValues: { name: '' },
      validate: { name: (value) => (value ? null : 'Name is required') },
      enhanceGetInputProps: markInvalidFields,
    }),
  );
  return (
    <form onSubmit={form.onSubmit(() => undefined)} noValidate aria-label={label}>
      <TextInput label={`${label} name`} {...form.getInputProps('name')} />
      <button type="submit">Save {label}</button>
    </form>
  );
}

describe('useFocusFirstError', () => {
  it('focuses the field in error of the form that was sent, not that of another form in error', async () => {
    render(
      <MantineProvider env="test" theme={theme}>
        <NameForm label="Account" />
        <NameForm label="Password" />
      </MantineProvider>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Save Account' }));
    await waitFor(() => expect(screen.getByLabelText('Account name')).toHaveFocus());
    await user.click(screen.getByRole('button', { name: 'Save Password' }));
    await waitFor(() => expect(screen.getByLabelText('Password name')).toHaveFocus());
    expect(screen.getByLabelText('Account name')).toHaveAttribute('aria-invalid', 'true');
  });

  it('focuses a field the server refused through setFieldError (an unknown invitee)', async () => {
    function InviteForm() {
      const form = useFocusFirstError(
        useForm<{ target: string }>({
          initialValues: { target: 'nobody' },
          enhanceGetInputProps: markInvalidFields,
        }),
      );
      return (
        <form
          onSubmit={form.onSubmit(async () => {
            await Promise.resolve();
            form.setFieldError('target', 'No user with that username or email.');
          })}
          noValidate
        >
          <TextInput label="Username or email" {...form.getInputProps('target')} />
          <button type="submit">Send Invitation</button>
        </form>
      );
    }
    render(
      <MantineProvider env="test" theme={theme}>
        <InviteForm />
      </MantineProvider>,
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send Invitation' }));
    await waitFor(() => expect(screen.getByLabelText('Username or email')).toHaveFocus());
  });
});
