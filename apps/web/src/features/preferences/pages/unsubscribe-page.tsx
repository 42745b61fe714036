import { announcementEmailsMessages } from '@haversack/contracts';
import { Alert, Anchor, Button, Text } from '@mantine/core';
import { IconMailCheck, IconMailOff, IconMailX } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LinkActionPage, LinkActionResult } from '../../../components/link-action-page';
import { isApiError } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import {
  type AnnouncementEmailsChange,
  changeAnnouncementEmails,
  unsubscribeOnce,
} from '../api/announcement-emails-api';

/**
 * /unsubscribe?token=…, the link in a mass mail's footer: works signed out. Opening it turns the account's
 * announcement emails off and says so; the page offers the undo (and, undone, to unsubscribe again).
 */
export function UnsubscribePage() {
  usePageTitle('Unsubscribe');
  const [searchParams] = useSearchParams();

  return (
    <LinkActionPage
      token={searchParams.get('token')}
      act={unsubscribeOnce}
      invalidMessage={announcementEmailsMessages.invalid}
      progress={{ title: 'Unsubscribing', status: 'Turning off announcement emails...' }}
      done={(result, token) => <Unsubscribed token={token} unsubscribed={result} />}
      failed={(message) => (
        <LinkActionResult
          testId="unsubscribe-failed"
          worked={false}
          icon={IconMailX}
          title="This link does not work"
        >
          <Text>{message}</Text>
          <Anchor component={Link} to="/profile/preferences">
            Open your preferences
          </Anchor>
        </LinkActionResult>
      )}
    />
  );
}

/** Unsubscribed by the link: says so and offers the undo, then, undone, to unsubscribe again. */
function Unsubscribed({ token, unsubscribed }: { token: string; unsubscribed: AnnouncementEmailsChange }) {
  const [outcome, setOutcome] = useState(unsubscribed);
  const [changing, setChanging] = useState(false);
  const [changeError, setChangeError] = useState<string | null>(null);

  const change = (subscribed: boolean) => {
    setChanging(true);
    setChangeError(null);
    changeAnnouncementEmails(token, subscribed).then(
      (result) => {
        setChanging(false);
        setOutcome(result);
      },
      (error: unknown) => {
        setChanging(false);
        setChangeError((isApiError(error) && error.serverMessage) || announcementEmailsMessages.invalid);
      },
    );
  };

  const subscribed = outcome.announcement_emails;
  return (
    <LinkActionResult
      testId="unsubscribe-done"
      worked
      icon={subscribed ? IconMailCheck : IconMailOff}
      title={subscribed ? 'Subscribed again' : 'Unsubscribed'}
    >
      <Text role="status">{outcome.message}</Text>
      <Text size="sm" c="dimmed">
        Mails about your account, such as password resets, still reach you. You can change this at any time
        under Preferences.
      </Text>
      {changeError ? (
        <Alert color="red" w="100%">
          {changeError}
        </Alert>
      ) : null}
      {subscribed ? (
        <Button variant="default" loading={changing} onClick={() => change(false)}>
          Unsubscribe again
        </Button>
      ) : (
        <Button loading={changing} onClick={() => change(true)}>
          Undo
        </Button>
      )}
    </LinkActionResult>
  );
}
