import {
  authMessages,
  RESET_REDIRECT_DELAY_MS,
  resetPasswordFieldsSchema,
  signedInSessionMessages,
  TOAST_DEFAULT_MS,
} from '@haversack/contracts';
import { Alert, Anchor, Button, Loader, PasswordInput, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCircleCheck, IconLinkOff } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { markInvalidFields, serverFieldErrors, useFocusFirstError } from '../../../lib/form-feedback';
import { validateWith } from '../../../lib/forms';
import { isApiError } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import { signOut } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { useAuthStore } from '../../../stores/auth-store';
import { recoveryFailureReason, resetPassword } from '../api/password-api';
import { BackToLoginLink } from '../components/back-to-login-link';

export const resetFailureBanner = 'Failed to reset password. The token may be invalid or expired.';

type LinkValidity = 'unknown' | 'valid' | 'invalid';
type Step = 'form' | 'success';

interface ResetFields {
  password: string;
  password_confirmation: string;
}

/**
 * spec/01 §2, §4: link validity starts unknown; no token makes it invalid; a token is treated as valid
 * locally (the server judges it on submit). Success redirects to /login after 2 s.
 */
export function ResetPasswordPage() {
  usePageTitle('Reset password');
  const { token } = useParams();
  const navigate = useNavigate();
  const [validity, setValidity] = useState<LinkValidity>('unknown');
  const [step, setStep] = useState<Step>('form');
  const [bannerError, setBannerError] = useState<string | null>(null);
  /** Why the server refused the link itself (used, expired, unknown), once it has. */
  const [linkRefusal, setLinkRefusal] = useState<string | null>(null);

  const form = useFocusFirstError(
    useForm<ResetFields>({
      mode: 'controlled',
      initialValues: { password: '', password_confirmation: '' },
      validate: validateWith(resetPasswordFieldsSchema),
      enhanceGetInputProps: markInvalidFields,
    }),
  );

  useEffect(() => {
    setValidity(token ? 'valid' : 'invalid');
  }, [token]);

  useEffect(() => {
    if (step !== 'success') return;
    const timer = setTimeout(() => navigate('/login', { replace: true }), RESET_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [step, navigate]);

  const handleSubmit = async (values: ResetFields) => {
    if (!token) return;
    setBannerError(null);
    try {
      await resetPassword({ token, ...values });
      // The reset ended every session of the account; a browser still signed in (the page is open to it)
      // forgets its own, so the sign-in page that follows is the one shown.
      if (useAuthStore.getState().isAuthenticated) await signOut(signedInSessionMessages.passwordReset);
      toast.success(authMessages.passwordReset, TOAST_DEFAULT_MS);
      setStep('success');
    } catch (error) {
      // spec/01 §2: a link judged invalid shows "Invalid Reset Link" with a way to ask for a new one, not a
      // banner above a form that can only fail again.
      const tokenRefused = isApiError(error) && error.details.find((detail) => detail.field === 'token');
      if (tokenRefused) {
        setLinkRefusal(tokenRefused.message);
        setValidity('invalid');
        return;
      }
      const fieldErrors = serverFieldErrors(error, ['password', 'password_confirmation']);
      if (fieldErrors) form.setErrors(fieldErrors);
      // The banner says it once; spec/01 §8's extra toast made it twice (issue 12, docs/decisions.md).
      setBannerError(recoveryFailureReason(error) ?? resetFailureBanner);
    }
  };

  if (validity === 'unknown') {
    return (
      <Stack gap="md" align="center" ta="center">
        <Title order={1} size="h2">
          Reset Password
        </Title>
        <Loader aria-hidden="true" />
        <Text role="status">Validating reset link...</Text>
        <Button component={Link} to="/login" variant="default">
          Return to Login
        </Button>
      </Stack>
    );
  }

  if (validity === 'invalid') {
    return (
      <Stack gap="md" align="center" ta="center" data-testid="reset-password-invalid">
        <ThemeIcon size={56} radius="xl" variant="light" color="red" aria-hidden="true">
          <IconLinkOff size={30} />
        </ThemeIcon>
        <Title order={1} size="h2">
          Invalid Reset Link
        </Title>
        <Text role={linkRefusal ? 'alert' : undefined}>{linkRefusal ?? authMessages.resetTokenInvalid}</Text>
        <Anchor component={Link} to="/forgot-password">
          Request a new reset link
        </Anchor>
        <Anchor component={Link} to="/login" size="sm" className="haversack-touch-target">
          Back to login
        </Anchor>
      </Stack>
    );
  }

  if (step === 'success') {
    return (
      <Stack gap="md" align="center" ta="center" data-testid="reset-password-success">
        <ThemeIcon size={56} radius="xl" variant="light" color="teal" aria-hidden="true">
          <IconCircleCheck size={30} />
        </ThemeIcon>
        <Title order={1} size="h2">
          Password Reset Successful
        </Title>
        <Text>Your password has been changed. You will be redirected to the login page in a moment.</Text>
        <Anchor component={Link} to="/login">
          Go to login now
        </Anchor>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} size="h2">
          Reset Password
        </Title>
        <Text c="dimmed" size="sm">
          Choose a new password for your account.
        </Text>
      </Stack>
      <form onSubmit={form.onSubmit(handleSubmit)} noValidate aria-label="Reset password">
        <Stack gap="md">
          {bannerError ? (
            <Alert color="red" variant="light" data-testid="reset-password-error">
              {bannerError}
            </Alert>
          ) : null}
          <PasswordInput
            label="New Password"
            autoComplete="new-password"
            required
            description="At least 8 characters, with an uppercase letter, a lowercase letter and a number"
            data-testid="reset-password-password"
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label="Confirm New Password"
            autoComplete="new-password"
            required
            data-testid="reset-password-confirmation"
            {...form.getInputProps('password_confirmation')}
          />
          <Button type="submit" fullWidth loading={form.submitting} data-testid="reset-password-submit">
            Reset Password
          </Button>
        </Stack>
      </form>
      <BackToLoginLink />
    </Stack>
  );
}
