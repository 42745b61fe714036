import { authMessages } from '@haversack/contracts';
import { Anchor, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconMailX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ResendVerificationButton } from '../../../components/resend-verification-button';
import { isApiError } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import { updateSessionUser } from '../../../lib/session';
import { useAuthStore } from '../../../stores/auth-store';
import { verifyEmailOnce } from '../api/password-api';
import { ResendVerificationForm } from '../components/resend-verification-form';

type Outcome =
  | { state: 'checking' }
  | { state: 'verified'; message: string }
  | { state: 'failed'; message: string };

/** /verify-email?token=…: confirms the address with the server and says how it went. */
export function VerifyEmailPage() {
  usePageTitle('Verify email');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  const [outcome, setOutcome] = useState<Outcome>(() =>
    token ? { state: 'checking' } : { state: 'failed', message: authMessages.verificationTokenInvalid },
  );

  useEffect(() => {
    if (!token) return;
    let current = true;
    verifyEmailOnce(token).then(
      (result) => {
        if (result.user) updateSessionUser(result.user);
        if (current) setOutcome({ state: 'verified', message: result.message });
      },
      (error: unknown) => {
        const message = (isApiError(error) && error.serverMessage) || authMessages.verificationTokenInvalid;
        if (current) setOutcome({ state: 'failed', message });
      },
    );
    return () => {
      current = false;
    };
  }, [token]);

  const next = isAuthenticated
    ? { href: '/dashboard', label: 'Go to dashboard' }
    : { href: '/login', label: 'Go to sign in' };

  if (outcome.state === 'checking') {
    return (
      <Stack gap="md" align="center" ta="center">
        <Title order={1} size="h2">
          Verifying your email
        </Title>
        <Loader aria-hidden="true" />
        <Text role="status">Checking your verification link...</Text>
      </Stack>
    );
  }

  if (outcome.state === 'verified') {
    return (
      <Stack gap="md" align="center" ta="center" data-testid="verify-email-success">
        <ThemeIcon size={56} radius="xl" variant="light" color="teal" aria-hidden="true">
          <IconCircleCheck size={30} />
        </ThemeIcon>
        <Title order={1} size="h2">
          Email verified
        </Title>
        <Text>{outcome.message}</Text>
        <Anchor component={Link} to={next.href}>
          {next.label}
        </Anchor>
      </Stack>
    );
  }

  return (
    <Stack gap="md" align="center" ta="center" data-testid="verify-email-failed">
      <ThemeIcon size={56} radius="xl" variant="light" color="red" aria-hidden="true">
        <IconMailX size={30} />
      </ThemeIcon>
      <Title order={1} size="h2">
        Verification failed
      </Title>
      <Text>{outcome.message}</Text>
      {isAuthenticated ? <ResendVerificationButton /> : <ResendVerificationForm />}
      <Anchor component={Link} to={next.href}>
        {next.label}
      </Anchor>
    </Stack>
  );
}
