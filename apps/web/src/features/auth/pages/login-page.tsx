import type { LoginBody } from '@haversack/contracts';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { loadAuthSchemas } from '../../../lib/auth-schemas-loader';
import { markInvalidFields, serverFieldErrors, useFocusFirstError } from '../../../lib/form-feedback';
import { isApiError } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import { isPartyInviteRedirect, safeRedirectTarget } from '../../../lib/redirect';
import { signIn } from '../../../lib/session';
import { useTextForm } from '../../../lib/text-form';
import { ContinueWithDiscord } from '../../discord/components/continue-with-discord';
import { validateLogin } from '../lib/validate-login';

/** Someone is using the form: fetch the schemas that check the answer to signing in (issue 13 §1). */
const preloadSignIn = () => void loadAuthSchemas().catch(() => undefined);

const loginFields = ['email', 'password'] as const;

export function LoginPage() {
  usePageTitle('Sign in');
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const [formError, setFormError] = useState<string | null>(null);
  const redirect = searchParams.get('redirect');

  const form = useFocusFirstError(
    // Not @mantine/form's useForm: this page is in every first load (lib/text-form.ts, issue 13 §1).
    useTextForm<LoginBody>({
      initialValues: { email: '', password: '' },
      validate: validateLogin,
      enhanceGetInputProps: markInvalidFields,
    }),
  );

  const handleSubmit = async (values: LoginBody) => {
    setFormError(null);
    try {
      await signIn({ email: values.email.trim(), password: values.password });
      // spec/01 §2: back to the page that asked for sign-in, if it is a path on this site.
      navigate(safeRedirectTarget(redirect), { replace: true });
    } catch (error) {
      const fieldErrors = serverFieldErrors(error, loginFields);
      if (fieldErrors) form.setErrors(fieldErrors);
      else setFormError(isApiError(error) ? error.message : 'Sign in failed. Please try again.');
    }
  };

  const registerHref = redirect ? `/register?redirect=${encodeURIComponent(redirect)}` : '/register';
  // Sent here by a party invite: most such people have no account yet, so "welcome back" would be wrong.
  const fromInvite = isPartyInviteRedirect(redirect);

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} size="h2">
          Sign in
        </Title>
        <Text c="dimmed" size="sm">
          {fromInvite ? 'Sign in to join the party you were invited to.' : 'Welcome back to Haversack.'}
        </Text>
      </Stack>
      {fromInvite ? (
        <Alert color="blue" variant="light" role="status" data-testid="login-party-invite">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">
              You are joining a party on Haversack. New here? Create a free account first: you come straight
              back to the invite.
            </Text>
            <Button component={Link} to={registerHref}>
              Create an account
            </Button>
          </Stack>
        </Alert>
      ) : null}
      <form
        onSubmit={form.onSubmit(handleSubmit)}
        onFocus={preloadSignIn}
        onPointerDown={preloadSignIn}
        noValidate
        aria-label="Sign in"
      >
        <Stack gap="md">
          {formError ? (
            <Alert color="red" variant="light" data-testid="login-error">
              {formError}
            </Alert>
          ) : null}
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            data-testid="login-email"
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            data-testid="login-password"
            {...form.getInputProps('password')}
          />
          <Group justify="flex-end">
            <Anchor component={Link} to="/forgot-password" size="sm" className="haversack-touch-target">
              Forgot password?
            </Anchor>
          </Group>
          <Button type="submit" fullWidth loading={form.submitting} data-testid="login-submit">
            Sign In
          </Button>
        </Stack>
      </form>
      <ContinueWithDiscord redirect={redirect} />
      <Text size="sm" ta="center">
        Don&apos;t have an account?{' '}
        <Anchor component={Link} to={registerHref}>
          Sign up
        </Anchor>
      </Text>
      <Text size="sm" ta="center">
        New to Haversack?{' '}
        <Anchor component={Link} to="/home">
          See what it does
        </Anchor>
      </Text>
    </Stack>
  );
}
