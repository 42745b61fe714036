import { MantineProvider, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { theme } from '../app/theme';
import { markInvalidFields, serverFieldErrors, useFocusFirstError } from './form-feedback';
import { ApiError } from './http-client';

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

describe('serverFieldErrors', () => {
  const refusal = (...details: { field: string; message: string }[]) =>
    new ApiError({
      code: 'VALIDATION_ERROR',
      status: 422,
      message: 'Please check your input and try again',
      details,
    });

  it('puts an error on an element of a list (tags.1) on the field that holds the list', () => {
    expect(
      serverFieldErrors(
        refusal(
          { field: 'item_template.tags.1', message: 'A tag can be at most 60 characters' },
          { field: 'item_template.tags.3', message: 'A tag can be at most 60 characters (again)' },
        ),
        ['name', 'tags'],
        'item_template.',
      ),
    ).toEqual({ tags: 'A tag can be at most 60 characters' });
  });

  it('keeps a path the form names itself, and leaves a detail on no field of the form to the caller', () => {
    expect(
      serverFieldErrors(refusal({ field: 'items.0.name', message: 'Name is required' }), [
        'items.0.name',
        'items',
      ]),
    ).toEqual({ 'items.0.name': 'Name is required' });
    expect(serverFieldErrors(refusal({ field: 'party.0', message: 'No' }), ['name'], 'party.')).toBeNull();
  });
});
