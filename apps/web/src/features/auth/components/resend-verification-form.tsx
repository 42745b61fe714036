import { forgotPasswordBodySchema } from '@haversack/contracts';
import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { resendVerificationRequest } from '../../../lib/auth-api';
import { markInvalidFields, useFocusFirstError } from '../../../lib/form-feedback';
import { validateWith } from '../../../lib/forms';

/**
 * Signed out, a dead verification link names no account: the visitor gives the address and the server
 * mails a new link (POST /auth/resend_verification {email}), answering alike whether it exists or not.
 */
export function ResendVerificationForm() {
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const form = useFocusFirstError(
    useForm({
      mode: 'controlled',
      initialValues: { email: '' },
      // The same one-address body as the forgot-password form.
      validate: validateWith(forgotPasswordBodySchema),
      enhanceGetInputProps: markInvalidFields,
    }),
  );

  const handleSubmit = async ({ email }: { email: string }) => {
    try {
      setSentMessage(await resendVerificationRequest(email.trim()));
    } catch {
      // The HTTP client has already shown the catalogue toast for this failure.
    }
  };

  if (sentMessage) {
    return <Text role="status">{sentMessage}</Text>;
  }

  return (
    <form onSubmit={form.onSubmit(handleSubmit)} noValidate style={{ width: '100%', maxWidth: 360 }}>
      {/* The address above its button: beside it, the long label left a phone ~60 px to type in. */}
      <Stack gap="xs" align="flex-start">
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          required
          w="100%"
          ta="start"
          {...form.getInputProps('email')}
        />
        <Button type="submit" variant="default" loading={form.submitting}>
          Resend verification email
        </Button>
      </Stack>
    </form>
  );
}
