import { type DiscordCallbackResult, discordMessages } from '@haversack/contracts';
import { Alert, Anchor, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { usePageTitle } from '../../../lib/page-title';
import { safeRedirectTarget } from '../../../lib/redirect';
import { adoptSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { useAuthStore } from '../../../stores/auth-store';
import { discordFailureMessage, discordKeys, finishDiscord } from '../../discord/api/discord-api';

/** What Discord (or our own start link) put in the query instead of a code. */
function messageForError(error: string): string {
  if (error === 'access_denied') return discordMessages.denied;
  if (error === 'not_configured') return discordMessages.notConfigured;
  if (error === 'link_needs_post') return discordMessages.linkNeedsSignIn;
  return discordMessages.stateInvalid;
}

type Outcome = { kind: 'working' } | { kind: 'failed'; message: string };

/**
 * spec/01 §2 /auth/discord/callback (issue 16 §1): Discord sends the browser back here with a code and the
 * state, or with an error. The server finishes the sign-in or link; every failure ends on a message and a
 * way back, never a blank page.
 */
export function DiscordCallbackPage() {
  usePageTitle('Discord sign-in');
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signedIn = useAuthStore((state) => state.isAuthenticated);
  const [outcome, setOutcome] = useState<Outcome>(() => {
    const error = searchParams.get('error');
    if (error) return { kind: 'failed', message: messageForError(error) };
    if (!searchParams.get('code') || !searchParams.get('state')) {
      return { kind: 'failed', message: discordMessages.stateInvalid };
    }
    return { kind: 'working' };
  });
  // The code works once: React's development double effect must not send it twice.
  const sent = useRef(false);

  useEffect(() => {
    const code = searchParams.get('code');
    const state = searchParams.get('state');
    if (sent.current || !code || !state || searchParams.get('error')) return;
    sent.current = true;
    const finished = (result: DiscordCallbackResult) => {
      if (result.mode === 'link') {
        void queryClient.invalidateQueries({ queryKey: discordKeys.link });
        toast.success(discordMessages.linked);
        navigate('/profile', { replace: true });
        return;
      }
      adoptSession(result.session);
      if (result.created) toast.success(`Welcome to Haversack, ${result.session.user.username}!`);
      // The page the sign-in started for (a party invite), as after an email sign-in; else the dashboard.
      navigate(safeRedirectTarget(result.redirect), { replace: true });
    };
    finishDiscord(code, state).then(finished, (error: unknown) => {
      setOutcome({
        kind: 'failed',
        message: discordFailureMessage(error, 'Signing in with Discord failed. Please try again.'),
      });
    });
  }, [searchParams, navigate, queryClient]);

  if (outcome.kind === 'working') {
    return (
      <Stack gap="md" align="center" py="xl" data-testid="discord-callback-working">
        <Loader aria-hidden />
        <Text role="status">Finishing the Discord sign-in…</Text>
      </Stack>
    );
  }

  return (
    <Stack gap="lg" data-testid="discord-callback-failed">
      <Title order={1} size="h2">
        Discord sign-in
      </Title>
      <Alert color="red" variant="light" title="Discord sign-in did not finish" role="alert">
        {outcome.message}
      </Alert>
      <Group gap="sm">
        {signedIn ? (
          <Button component={Link} to="/profile">
            Back to your profile
          </Button>
        ) : (
          <Button component={Link} to="/login">
            Back to sign in
          </Button>
        )}
        <Anchor component={Link} to="/discord" size="sm">
          About Haversack on Discord
        </Anchor>
      </Group>
    </Stack>
  );
}
