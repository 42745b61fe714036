import { authMessages, forgotPasswordBodySchema, TOAST_DEFAULT_MS } from '@haversack/contracts';
import { Alert, Anchor, Button, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMailCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { markInvalidFields, useFocusFirstError } from '../../../lib/form-feedback';
import { validateWith } from '../../../lib/forms';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { recoveryFailureReason, requestPasswordReset } from '../api/password-api';
import { BackToLoginLink } from '../components/back-to-login-link';

export const forgotFailureBanner = 'Failed to process request. Please try again.';

/** spec/01 §2, §8: forgot-password flow (idle → submitting → sent, or an error banner). */
export function ForgotPasswordPage() {
  usePageTitle('Forgot password');
  const [sent, setSent] = useState(false);
  const [bannerError, setBannerError] = useState<string | null>(null);
  const form = useFocusFirstError(
    useForm({
      mode: 'controlled',
      initialValues: { email: '' },
      validate: validateWith(forgotPasswordBodySchema),
      enhanceGetInputProps: markInvalidFields,
    }),
  );

  const handleSubmit = async ({ email }: { email: string }) => {
    setBannerError(null);
    try {
      await requestPasswordReset(email.trim());
      // spec/01 §8: success toast, 5 s.
      toast.success('Password reset instructions sent to your email.', TOAST_DEFAULT_MS);
      setSent(true);
    } catch (error) {
      // The banner says it once; spec/01 §8's extra toast made it twice (issue 12, docs/decisions.md).
      setBannerError(recoveryFailureReason(error) ?? forgotFailureBanner);
    }
  };

  if (sent) {
    return (
      <Stack gap="md" align="center" ta="center" data-testid="forgot-password-sent">
        <ThemeIcon size={56} radius="xl" variant="light" color="teal" aria-hidden="true">
          <IconMailCheck size={30} />
        </ThemeIcon>
        <Title order={1} size="h2">
          Reset Instructions Sent
        </Title>
        <Text>{authMessages.forgotPasswordSent}</Text>
        <Text size="sm" c="dimmed">
          Check your inbox, and the spam folder, for a message with the reset link.
        </Text>
        <Anchor component={Link} to="/login">
          Return to login
        </Anchor>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} size="h2">
          Forgot your password?
        </Title>
        <Text c="dimmed" size="sm">
          Enter the email address of your account and we will send you instructions to reset your password.
        </Text>
      </Stack>
      <form onSubmit={form.onSubmit(handleSubmit)} noValidate aria-label="Request password reset">
        <Stack gap="md">
          {bannerError ? (
            <Alert color="red" variant="light" data-testid="forgot-password-error">
              {bannerError}
            </Alert>
          ) : null}
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            data-testid="forgot-password-email"
            {...form.getInputProps('email')}
          />
          <Button type="submit" fullWidth loading={form.submitting} data-testid="forgot-password-submit">
            Send Reset Instructions
          </Button>
        </Stack>
      </form>
      <BackToLoginLink />
    </Stack>
  );
}
