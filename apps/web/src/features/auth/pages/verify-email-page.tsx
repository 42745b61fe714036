import { authMessages } from '@haversack/contracts';
import { Anchor, Text } from '@mantine/core';
import { IconCircleCheck, IconMailX } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { LinkActionPage, LinkActionResult } from '../../../components/link-action-page';
import { ResendVerificationButton } from '../../../components/resend-verification-button';
import { usePageTitle } from '../../../lib/page-title';
import { updateSessionUser } from '../../../lib/session';
import { useAuthStore } from '../../../stores/auth-store';
import { verifyEmailOnce } from '../api/password-api';
import { ResendVerificationForm } from '../components/resend-verification-form';

/** Verifies the address; a signed-in user's session learns it at once. */
async function verifyEmail(token: string) {
  const result = await verifyEmailOnce(token);
  if (result.user) updateSessionUser(result.user);
  return result;
}

/** /verify-email?token=…: confirms the address with the server and says how it went. */
export function VerifyEmailPage() {
  usePageTitle('Verify email');
  const [searchParams] = useSearchParams();
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  const next = (
    <Anchor component={Link} to={isAuthenticated ? '/dashboard' : '/login'}>
      {isAuthenticated ? 'Go to dashboard' : 'Go to sign in'}
    </Anchor>
  );

  return (
    <LinkActionPage
      token={searchParams.get('token')}
      act={verifyEmail}
      invalidMessage={authMessages.verificationTokenInvalid}
      progress={{ title: 'Verifying your email', status: 'Checking your verification link...' }}
      done={(result) => (
        <LinkActionResult testId="verify-email-success" worked icon={IconCircleCheck} title="Email verified">
          <Text>{result.message}</Text>
          {next}
        </LinkActionResult>
      )}
      failed={(message) => (
        <LinkActionResult
          testId="verify-email-failed"
          worked={false}
          icon={IconMailX}
          title="Verification failed"
        >
          <Text>{message}</Text>
          {isAuthenticated ? <ResendVerificationButton /> : <ResendVerificationForm />}
          {next}
        </LinkActionResult>
      )}
    />
  );
}
