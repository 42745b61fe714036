import { accountClosureMessages } from '@haversack/contracts';
import {
  Alert,
  Button,
  Group,
  List,
  Modal,
  Paper,
  PasswordInput,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconDownload, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { isApiError } from '../../../lib/http-client';
import { toast } from '../../../lib/toast';
import { useCurrentUser } from '../../../stores/auth-store';
import { discordLinkQueryOptions } from '../../discord/api/discord-api';
import { deleteMyAccount, downloadMyData } from '../api/account-api';

/** What deleting the account does, said before the button and again in the dialog. */
function DeletionConsequences() {
  return (
    <List size="sm" spacing={4} data-testid="delete-account-consequences">
      <List.Item>
        Parties you run go to their next member whose plan has room to run one (a manager first, then a
        player); a party where you are alone is deleted with its stash.
      </List.Item>
      <List.Item>Your characters and everything they carry are deleted.</List.Item>
      <List.Item>Templates you shared stay for the players who use them, without your name.</List.Item>
      <List.Item>A paid plan is cancelled at once, and patronages you give end.</List.Item>
      <List.Item>
        <strong>This cannot be undone.</strong> Download your data first if you want a copy.
      </List.Item>
    </List>
  );
}

/** The profile's "Your data" section: the whole account as one JSON file. */
export function YourDataSection() {
  const user = useCurrentUser();
  const [downloading, setDownloading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!user) return null;

  const download = async () => {
    setError(null);
    setDownloading(true);
    try {
      const name = await downloadMyData(user.username);
      toast.success(`Your data is downloading as ${name}.`);
    } catch (failure) {
      setError(
        isApiError(failure) && failure.code === 'RATE_LIMITED'
          ? failure.message
          : accountClosureMessages.exportFailed,
      );
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="your-data-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="your-data-heading">
          Your data
        </Title>
        <Text size="sm" c="dimmed">
          One readable JSON file with your profile, preferences, plan, characters and their items, parties
          (and for those you run as Game Master: their settings, notes, stash, shops and loot), the templates
          you wrote with their contents, your purchase requests and the latest 10,000 ledger entries you made
          or that are about your characters.
        </Text>
        {error ? (
          <Alert color="red" variant="light" data-testid="export-error">
            {error}
          </Alert>
        ) : null}
        <Group>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={downloading}
            onClick={() => void download()}
            data-testid="export-data"
          >
            Download my data
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The profile's danger zone: deleting the account, confirmed in a dialog. */
export function DeleteAccountSection() {
  const [opened, { open, close }] = useDisclosure(false);
  // Read ahead (the Discord section reads it too): the dialog then opens on its field, not a skeleton.
  useQuery(discordLinkQueryOptions());
  return (
    <Paper
      withBorder
      p="lg"
      component="section"
      aria-labelledby="delete-account-heading"
      style={{ borderColor: 'var(--mantine-color-red-outline)' }}
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id="delete-account-heading">
          Danger zone
        </Title>
        <Text size="sm" fw={600}>
          Delete your account
        </Text>
        <DeletionConsequences />
        <Group>
          <Button
            color="red"
            variant="light"
            leftSection={<IconTrash size={16} aria-hidden />}
            onClick={open}
            data-testid="delete-account-open"
          >
            Delete account…
          </Button>
        </Group>
      </Stack>
      <Modal
        opened={opened}
        onClose={close}
        title="Delete your account?"
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        {opened ? <DeleteAccountForm onCancel={close} /> : null}
      </Modal>
    </Paper>
  );
}

function DeleteAccountForm({ onCancel }: { onCancel: () => void }) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  // Whether the account has a password: one made through Discord confirms with its email instead.
  const link = useQuery(discordLinkQueryOptions());
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const fieldRef = useRef<HTMLInputElement>(null);
  // The dialog focuses its field on opening (data-autofocus); a field that comes after the skeleton is
  // focused then. Never on the first render: the dialog must first note the button to give focus back to.
  const startedPending = useRef(link.isPending);
  useEffect(() => {
    if (startedPending.current && !link.isPending) fieldRef.current?.focus();
  }, [link.isPending]);
  if (!user) return null;
  const byEmail = link.data?.has_password === false;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFieldError(null);
    setFormError(null);
    if (value.trim() === '') {
      setFieldError(byEmail ? accountClosureMessages.emailRequired : accountClosureMessages.passwordRequired);
      fieldRef.current?.focus();
      return;
    }
    setPending(true);
    try {
      await deleteMyAccount(byEmail ? { confirm_email: value.trim() } : { password: value });
      toast.success(accountClosureMessages.deleted);
      navigate('/login', { replace: true });
    } catch (failure) {
      setPending(false);
      const detail = isApiError(failure)
        ? failure.details.find((d) => d.field === 'password' || d.field === 'confirm_email')
        : undefined;
      if (detail) {
        setFieldError(detail.message);
        // Back to the field that says what was wrong, to type it again (the button keeps it otherwise).
        fieldRef.current?.focus();
      } else if (isApiError(failure))
        setFormError(
          failure.code === 'FORBIDDEN' ? (failure.serverMessage ?? failure.message) : failure.message,
        );
      else setFormError('Your account could not be deleted. Please try again.');
    }
  };

  if (link.isPending) return <Skeleton height={120} aria-label="Loading your sign-in methods" />;

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Delete your account">
      <Stack gap="md">
        <DeletionConsequences />
        {formError ? (
          <Alert color="red" variant="light" role="alert" data-testid="delete-account-error">
            {formError}
          </Alert>
        ) : null}
        {byEmail ? (
          <TextInput
            label="Type your email address to confirm"
            description={user.email}
            type="email"
            autoComplete="off"
            required
            data-autofocus
            ref={fieldRef}
            value={value}
            error={fieldError}
            onChange={(event) => setValue(event.currentTarget.value)}
            data-testid="delete-account-email"
          />
        ) : (
          <PasswordInput
            label="Your password"
            autoComplete="current-password"
            required
            data-autofocus
            ref={fieldRef}
            value={value}
            error={fieldError}
            onChange={(event) => setValue(event.currentTarget.value)}
            data-testid="delete-account-password"
          />
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          {/* red.9: white on Mantine's default red is about 3.7:1, under WCAG AA (as in ConfirmDialog). */}
          <Button type="submit" color="red.9" loading={pending} data-testid="delete-account-confirm">
            Delete my account
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
