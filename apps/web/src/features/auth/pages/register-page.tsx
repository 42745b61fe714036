import { type Registration, registrationClosedMessage, registrationSchema } from '@haversack/contracts';
import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { siteSettingsQueryOptions } from '../../../components/maintenance-banner';
import { markInvalidFields, serverFieldErrors, useFocusFirstError } from '../../../lib/form-feedback';
import { validateWith } from '../../../lib/forms';
import { isApiError } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import { isPartyInviteRedirect, safeRedirectTarget } from '../../../lib/redirect';
import { signUp } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { ContinueWithDiscord } from '../../discord/components/continue-with-discord';

const registrationFields = ['email', 'username', 'password', 'password_confirmation'] as const;

export function RegisterPage() {
  usePageTitle('Create account');
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const [formError, setFormError] = useState<string | null>(null);
  const redirect = searchParams.get('redirect');
  // Staff may close registration (Admin Settings): say so up front instead of refusing a filled-in form.
  // Until the switch is known, or if it cannot be read, the form shows and the server has the last word.
  const settings = useQuery(siteSettingsQueryOptions());
  const closed = settings.data?.registration_open === false;

  const form = useFocusFirstError(
    useForm<Registration>({
      mode: 'controlled',
      initialValues: { email: '', username: '', password: '', password_confirmation: '' },
      validate: validateWith(registrationSchema),
      enhanceGetInputProps: markInvalidFields,
    }),
  );

  const handleSubmit = async (values: Registration) => {
    setFormError(null);
    try {
      // spec/01 §4: registration ends signed in.
      await signUp({ ...values, email: values.email.trim(), username: values.username.trim() });
      toast.success('Welcome to Haversack! Your account has been created.');
      navigate(safeRedirectTarget(redirect), { replace: true });
    } catch (error) {
      // The server reports duplicates and rule failures on `user.<field>`.
      const fieldErrors = serverFieldErrors(error, registrationFields, 'user.');
      if (fieldErrors) form.setErrors(fieldErrors);
      else setFormError(isApiError(error) ? error.message : 'Registration failed. Please try again.');
    }
  };

  const loginHref = redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login';

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} size="h2">
          Create your account
        </Title>
        <Text c="dimmed" size="sm">
          {isPartyInviteRedirect(redirect)
            ? 'Once your account is made, you go straight back to join the party you were invited to.'
            : 'Keep your characters, parties and inventories in one place.'}
        </Text>
      </Stack>
      {closed ? (
        <Alert color="yellow" variant="light" role="status" data-testid="registration-closed">
          {registrationClosedMessage}
        </Alert>
      ) : (
        <form onSubmit={form.onSubmit(handleSubmit)} noValidate aria-label="Create account">
          <Stack gap="md">
            {formError ? (
              <Alert color="red" variant="light" data-testid="register-error">
                {formError}
              </Alert>
            ) : null}
            <TextInput
              label="Email"
              type="email"
              autoComplete="email"
              required
              data-testid="register-email"
              {...form.getInputProps('email')}
            />
            <TextInput
              label="Username"
              autoComplete="username"
              required
              description="3 to 30 letters, digits, _ or -"
              data-testid="register-username"
              {...form.getInputProps('username')}
            />
            <PasswordInput
              label="Password"
              autoComplete="new-password"
              required
              description="At least 8 characters, with an uppercase letter, a lowercase letter and a number"
              data-testid="register-password"
              {...form.getInputProps('password')}
            />
            <PasswordInput
              label="Confirm Password"
              autoComplete="new-password"
              required
              data-testid="register-password-confirmation"
              {...form.getInputProps('password_confirmation')}
            />
            <Button type="submit" fullWidth loading={form.submitting} data-testid="register-submit">
              Create Account
            </Button>
          </Stack>
        </form>
      )}
      {closed ? null : <ContinueWithDiscord redirect={redirect} />}
      <Text size="sm" ta="center">
        Already have an account?{' '}
        <Anchor component={Link} to={loginHref}>
          Sign in
        </Anchor>
      </Text>
    </Stack>
  );
}
