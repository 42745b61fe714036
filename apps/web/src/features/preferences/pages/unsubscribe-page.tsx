import { announcementEmailsMessages } from '@haversack/contracts';
import { Alert, Anchor, Button, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMailCheck, IconMailOff, IconMailX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { isApiError } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import { changeAnnouncementEmails, unsubscribeOnce } from '../api/announcement-emails-api';

type Outcome =
  | { state: 'checking' }
  | { state: 'done'; subscribed: boolean; message: string }
  | { state: 'failed'; message: string };

function refusal(error: unknown): string {
  return (isApiError(error) && error.serverMessage) || announcementEmailsMessages.invalid;
}

/**
 * /unsubscribe?token=…, the link in a mass mail's footer: works signed out. Opening it turns the account's
 * announcement e-mails off and says so; the page offers the undo (and, undone, to unsubscribe again).
 */
export function UnsubscribePage() {
  usePageTitle('Unsubscribe');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const [outcome, setOutcome] = useState<Outcome>(() =>
    token ? { state: 'checking' } : { state: 'failed', message: announcementEmailsMessages.invalid },
  );
  const [changing, setChanging] = useState(false);
  const [changeError, setChangeError] = useState<string | null>(null);

  useEffect(() => {
    if (!token) return;
    let current = true;
    unsubscribeOnce(token).then(
      (result) => {
        if (current)
          setOutcome({ state: 'done', subscribed: result.announcement_emails, message: result.message });
      },
      (error: unknown) => {
        if (current) setOutcome({ state: 'failed', message: refusal(error) });
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
          Unsubscribing
        </Title>
        <Loader aria-hidden="true" />
        <Text role="status">Turning off announcement e-mails...</Text>
      </Stack>
    );
  }

  if (outcome.state === 'failed' || !token) {
    return (
      <Stack gap="md" align="center" ta="center" data-testid="unsubscribe-failed">
        <ThemeIcon size={56} radius="xl" variant="light" color="red" aria-hidden="true">
          <IconMailX size={30} />
        </ThemeIcon>
        <Title order={1} size="h2">
          This link does not work
        </Title>
        <Text>{outcome.state === 'failed' ? outcome.message : announcementEmailsMessages.invalid}</Text>
        <Anchor component={Link} to="/profile/preferences">
          Open your preferences
        </Anchor>
      </Stack>
    );
  }

  const change = (subscribed: boolean) => {
    setChanging(true);
    setChangeError(null);
    changeAnnouncementEmails(token, subscribed).then(
      (result) => {
        setChanging(false);
        setOutcome({ state: 'done', subscribed: result.announcement_emails, message: result.message });
      },
      (error: unknown) => {
        setChanging(false);
        setChangeError(refusal(error));
      },
    );
  };

  return (
    <Stack gap="md" align="center" ta="center" data-testid="unsubscribe-done">
      <ThemeIcon size={56} radius="xl" variant="light" color="teal" aria-hidden="true">
        {outcome.subscribed ? <IconMailCheck size={30} /> : <IconMailOff size={30} />}
      </ThemeIcon>
      <Title order={1} size="h2">
        {outcome.subscribed ? 'Subscribed again' : 'Unsubscribed'}
      </Title>
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
      {outcome.subscribed ? (
        <Button variant="default" loading={changing} onClick={() => change(false)}>
          Unsubscribe again
        </Button>
      ) : (
        <Button loading={changing} onClick={() => change(true)}>
          Undo
        </Button>
      )}
    </Stack>
  );
}
