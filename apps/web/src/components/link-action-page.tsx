import { Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { isApiError } from '../lib/http-client';

export type LinkActionOutcome<T> =
  | { state: 'checking' }
  | { state: 'done'; token: string; result: T }
  | { state: 'failed'; message: string };

/**
 * Runs `act` with a mailed link's token as the page opens, once, and says how it went. A link without its
 * token fails with `invalidMessage` and asks the server nothing; a refusal shows the server's message, or
 * `invalidMessage` where there is none. StrictMode runs the effect twice on mount: the second run waits for
 * the first's request instead of sending another (a token that works once would refuse it).
 */
export function useLinkAction<T>(
  token: string | null,
  act: (token: string) => Promise<T>,
  invalidMessage: string,
): LinkActionOutcome<T> {
  const [outcome, setOutcome] = useState<LinkActionOutcome<T>>(() =>
    token ? { state: 'checking' } : { state: 'failed', message: invalidMessage },
  );
  const started = useRef<{ token: string; request: Promise<T> } | null>(null);
  // The action and the message belong to the page; only a new token starts another request.
  const page = useRef({ act, invalidMessage });

  useEffect(() => {
    if (!token) return;
    if (started.current?.token !== token) started.current = { token, request: page.current.act(token) };
    let current = true;
    started.current.request.then(
      (result) => {
        if (current) setOutcome({ state: 'done', token, result });
      },
      (error: unknown) => {
        const message = (isApiError(error) && error.serverMessage) || page.current.invalidMessage;
        if (current) setOutcome({ state: 'failed', message });
      },
    );
    return () => {
      current = false;
    };
  }, [token]);

  return outcome;
}

/**
 * A page a mailed link opens (verify the address, undo an email change, unsubscribe): it acts at once
 * (useLinkAction), says so while it works, then draws the page's own outcome (LinkActionResult).
 */
export function LinkActionPage<T>({
  token,
  act,
  invalidMessage,
  progress,
  done,
  failed,
}: {
  token: string | null;
  act: (token: string) => Promise<T>;
  invalidMessage: string;
  /** The heading and the status line while the action runs. */
  progress: { title: string; status: string };
  /** The outcome, with the token it was for (a page may act on it again). */
  done: (result: T, token: string) => ReactNode;
  failed: (message: string) => ReactNode;
}) {
  const outcome = useLinkAction(token, act, invalidMessage);
  if (outcome.state === 'checking') {
    return (
      <Stack gap="md" align="center" ta="center">
        <Title order={1} size="h2">
          {progress.title}
        </Title>
        <Loader aria-hidden="true" />
        <Text role="status">{progress.status}</Text>
      </Stack>
    );
  }
  return outcome.state === 'done' ? done(outcome.result, outcome.token) : failed(outcome.message);
}

/** How a link's action went: an icon (teal when it worked, red when not), a heading, then the page's own. */
export function LinkActionResult({
  testId,
  worked,
  icon: ResultIcon,
  title,
  children,
}: {
  testId: string;
  worked: boolean;
  icon: Icon;
  title: string;
  children: ReactNode;
}) {
  return (
    <Stack gap="md" align="center" ta="center" data-testid={testId}>
      <ThemeIcon size={56} radius="xl" variant="light" color={worked ? 'teal' : 'red'} aria-hidden="true">
        <ResultIcon size={30} />
      </ThemeIcon>
      <Title order={1} size="h2">
        {title}
      </Title>
      {children}
    </Stack>
  );
}
