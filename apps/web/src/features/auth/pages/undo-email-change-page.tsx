import { authMessages } from '@haversack/contracts';
import { Anchor, Button, Text } from '@mantine/core';
import { IconMailX, IconShieldCheck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { LinkActionPage, LinkActionResult } from '../../../components/link-action-page';
import { usePageTitle } from '../../../lib/page-title';
import { signOut } from '../../../lib/session';
import { revertEmailChangeOnce } from '../api/password-api';

async function undoEmailChange(token: string) {
  const result = await revertEmailChangeOnce(token);
  // The server ended every session; forget this browser's too.
  await signOut();
  return result;
}

/**
 * /undo-email-change?token=…, the link mailed to the old address after an email change: puts the old
 * address back, signs every session out (this browser's too) and leads to choosing a new password.
 */
export function UndoEmailChangePage() {
  usePageTitle('Undo email change');
  const [searchParams] = useSearchParams();

  return (
    <LinkActionPage
      token={searchParams.get('token')}
      act={undoEmailChange}
      invalidMessage={authMessages.emailRevertInvalid}
      progress={{ title: 'Undoing the email change', status: 'Restoring your email address...' }}
      done={(result) => (
        <LinkActionResult
          testId="undo-email-change-success"
          worked
          icon={IconShieldCheck}
          title="Email address restored"
        >
          <Text>{result.message}</Text>
          <Text size="sm" c="dimmed">
            Your account uses {result.email} again.
          </Text>
          <Button
            component={Link}
            to={`/reset-password/${encodeURIComponent(result.reset_token)}`}
            data-testid="undo-email-change-reset"
          >
            Choose a new password
          </Button>
        </LinkActionResult>
      )}
      failed={(message) => (
        <LinkActionResult
          testId="undo-email-change-failed"
          worked={false}
          icon={IconMailX}
          title="Could not undo the change"
        >
          <Text>{message}</Text>
          <Anchor component={Link} to="/forgot-password">
            Reset your password instead
          </Anchor>
        </LinkActionResult>
      )}
    />
  );
}
