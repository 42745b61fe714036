import { authMessages } from '@haversack/contracts';
import { Anchor, Button, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMailX, IconShieldCheck } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { isApiError } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import { signOut } from '../../../lib/session';
import { revertEmailChangeOnce } from '../api/password-api';

type Outcome =
  | { state: 'checking' }
  | { state: 'reverted'; message: string; email: string; resetToken: string }
  | { state: 'failed'; message: string };

/**
 * /undo-email-change?token=…, the link mailed to the old address after an email change: puts the old
 * address back, signs every session out (this browser's too) and leads to choosing a new password.
 */
export function UndoEmailChangePage() {
  usePageTitle('Undo email change');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const [outcome, setOutcome] = useState<Outcome>(() =>
    token ? { state: 'checking' } : { state: 'failed', message: authMessages.emailRevertInvalid },
  );

  useEffect(() => {
    if (!token) return;
    let current = true;
    revertEmailChangeOnce(token).then(
      async (result) => {
        // The server ended every session; forget this browser's too.
        await signOut();
        if (current) {
          setOutcome({
            state: 'reverted',
            message: result.message,
            email: result.email,
            resetToken: result.reset_token,
          });
        }
      },
      (error: unknown) => {
        const message = (isApiError(error) && error.serverMessage) || authMessages.emailRevertInvalid;
        if (current) setOutcome({ state: 'failed', message });
      },
    );
    return () => {
      current = false;
    };
  }, [token]);

  if (outcome.state === 'checking') {
    return (
      <Stack gap="md" align="center" ta="center">
        <Title order={1} size="h2">
          Undoing the email change
        </Title>
        <Loader aria-hidden="true" />
        <Text role="status">Restoring your email address...</Text>
      </Stack>
    );
  }

  if (outcome.state === 'reverted') {
    return (
      <Stack gap="md" align="center" ta="center" data-testid="undo-email-change-success">
        <ThemeIcon size={56} radius="xl" variant="light" color="teal" aria-hidden="true">
          <IconShieldCheck size={30} />
        </ThemeIcon>
        <Title order={1} size="h2">
          Email address restored
        </Title>
        <Text>{outcome.message}</Text>
        <Text size="sm" c="dimmed">
          Your account uses {outcome.email} again.
        </Text>
        <Button
          component={Link}
          to={`/reset-password/${encodeURIComponent(outcome.resetToken)}`}
          data-testid="undo-email-change-reset"
        >
          Choose a new password
        </Button>
      </Stack>
    );
  }

  return (
    <Stack gap="md" align="center" ta="center" data-testid="undo-email-change-failed">
      <ThemeIcon size={56} radius="xl" variant="light" color="red" aria-hidden="true">
        <IconMailX size={30} />
      </ThemeIcon>
      <Title order={1} size="h2">
        Could not undo the change
      </Title>
      <Text>{outcome.message}</Text>
      <Anchor component={Link} to="/forgot-password">
        Reset your password instead
      </Anchor>
    </Stack>
  );
}
