import {
  type ApiToken,
  type ApiTokenCreate,
  type ApiTokenCreated,
  type ApiTokenScope,
  apiTokenCreateSchema,
  apiTokenLifetimes,
  apiTokenScopeLabels,
  DEFAULT_API_TOKEN_LIFETIME_DAYS,
} from '@haversack/contracts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Modal,
  Paper,
  Radio,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { IconKey } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorPanel } from '../../../components/error-panel';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { FeatureUpgradePrompt, UpgradePrompt } from '../../../components/upgrade-prompt';
import { markInvalidFields, serverFieldErrors, useFocusFirstError } from '../../../lib/form-feedback';
import { validateWith } from '../../../lib/forms';
import { isApiError } from '../../../lib/http-client';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { toast } from '../../../lib/toast';
import { isPlanRefusal } from '../../../lib/upgrade-link';
import { type TradeButtonFocus, useStockFocus } from '../../../lib/use-stock-focus';
import { absoluteTime, relativeTimeInSentence } from '../../activity/lib/relative-time';
import { CopyMessage } from '../../parties/components/copy-message';
import { currentSubscriptionQueryOptions } from '../../subscription/api/subscription-api';
import { myApiTokensQuery, useCreateApiToken, useRevokeApiToken } from '../api/api-tokens-api';

export const apiTokensUpgradeText =
  'Personal API tokens let you script your inventory from your own tools. Upgrade to a plan with API access to create them.';

/** Issue 16 §5: the profile's API tokens: create (secret shown once), list with last use, revoke. */
/** The section's id, which other sections link to ("revoke them under API tokens"). */
export const API_TOKENS_SECTION_ID = 'api-tokens';

export function ApiTokensSection() {
  const tokens = useQuery(myApiTokensQuery());
  const subscription = useQuery(currentSubscriptionQueryOptions());
  const hasApiAccess = subscription.data ? subscription.data.tier.features.api_access === true : undefined;
  const [creating, { open: openCreate, close: closeDialog }] = useDisclosure(false);
  // Once the secret is shown it can never be shown again: only the dialog's Done button may close it,
  // never a stray Escape, click outside or corner cross.
  const [secretShown, setSecretShown] = useState(false);
  const closeCreate = () => {
    closeDialog();
    setSecretShown(false);
  };
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const revoke = useRevokeApiToken();
  // The revoked token's row goes with its Revoke button: focus goes to the next row's Revoke, else the
  // previous one's, else Create token, instead of falling to the page (WCAG 2.4.3).
  const focus = useStockFocus<HTMLButtonElement>(
    tokens.data?.map((token) => token.id) ?? [],
    revoking !== null,
  );

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        toast.success(`API token “${revoking.name}” revoked`);
        setRevoking(null);
      },
    });
  };

  return (
    <Paper
      withBorder
      p="lg"
      component="section"
      id={API_TOKENS_SECTION_ID}
      aria-labelledby="api-tokens-heading"
      data-testid="api-tokens"
      // A link to the section scrolls it into view below the fixed header, not under it.
      style={{ scrollMarginTop: 'calc(var(--app-shell-header-offset, 0rem) + var(--mantine-spacing-md))' }}
    >
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4} style={{ flex: '1 1 260px' }}>
            <Title order={2} size="h4" id="api-tokens-heading">
              API tokens
            </Title>
            <Text size="sm" c="dimmed">
              Use the Haversack API from scripts with{' '}
              <Code style={{ overflowWrap: 'anywhere' }}>Authorization: Bearer hvk_…</Code>. See the{' '}
              <Anchor href="/api/docs" target="_blank" rel="noopener">
                API documentation
              </Anchor>
              . Changing or resetting your password revokes every token.
            </Text>
          </Stack>
          {hasApiAccess ? (
            <Button
              ref={focus.list}
              leftSection={<IconKey size={16} aria-hidden="true" />}
              onClick={openCreate}
            >
              Create token
            </Button>
          ) : null}
        </Group>
        {hasApiAccess === false ? (
          <FeatureUpgradePrompt feature="api_access">{apiTokensUpgradeText}</FeatureUpgradePrompt>
        ) : null}
        <RefreshFailedNote query={tokens} />
        {tokens.isPending ? (
          <TextSkeleton lines={3} />
        ) : failedWithNothingToShow(tokens) ? (
          <ErrorPanel
            title="Could not load your API tokens"
            message="Please try again."
            onRetry={() => void tokens.refetch()}
          />
        ) : tokens.data.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="api-tokens-empty">
            You have no API tokens.
          </Text>
        ) : (
          <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {tokens.data.map((token, index) => (
              <ApiTokenRow
                key={token.id}
                token={token}
                onRevoke={() => setRevoking(token)}
                revokeButton={focus.tradeButton(token.id, index)}
              />
            ))}
          </Stack>
        )}
      </Stack>
      <Modal
        opened={creating}
        onClose={closeCreate}
        title="Create API token"
        closeButtonProps={{ 'aria-label': 'Close' }}
        closeOnEscape={!secretShown}
        closeOnClickOutside={!secretShown}
        withCloseButton={!secretShown}
        centered
      >
        {creating ? <CreateTokenForm onCreated={() => setSecretShown(true)} onDone={closeCreate} /> : null}
      </Modal>
      <ConfirmDialog
        opened={revoking !== null}
        title="Revoke API token?"
        message={`Scripts using “${revoking?.name ?? ''}” will stop working at once. This cannot be undone.`}
        confirmLabel="Revoke"
        onConfirm={confirmRevoke}
        onClose={() => setRevoking(null)}
        loading={revoke.isPending}
      />
    </Paper>
  );
}

function expiryText(token: ApiToken): string {
  if (token.expires_at === null) return 'Never expires';
  return token.expired
    ? `Expired ${absoluteTime(token.expires_at)}`
    : `Expires ${absoluteTime(token.expires_at)}`;
}

function ApiTokenRow({
  token,
  onRevoke,
  revokeButton,
}: {
  token: ApiToken;
  onRevoke: () => void;
  revokeButton: TradeButtonFocus;
}) {
  return (
    <Paper component="li" withBorder p="sm" data-testid="api-token">
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <Stack gap={4} style={{ minWidth: 0, flex: '1 1 220px' }}>
          <Group gap="xs">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {token.name}
            </Text>
            <Badge variant="light" size="sm" color={token.scope === 'read' ? 'blue' : 'grape'}>
              {apiTokenScopeLabels[token.scope]}
            </Badge>
            {token.expired ? (
              <Badge variant="light" size="sm" color="red">
                Expired
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed">
            <Code>{token.hint}…</Code> · {expiryText(token)}
          </Text>
          <Text size="sm" c="dimmed">
            {token.last_used_at ? `Last used ${relativeTimeInSentence(token.last_used_at)}` : 'Never used'} ·
            Created {absoluteTime(token.created_at)}
          </Text>
        </Stack>
        <Button
          size="compact-sm"
          variant="light"
          color="red.9"
          onClick={onRevoke}
          ref={revokeButton.ref}
          onFocus={revokeButton.onFocus}
          aria-label={`Revoke API token ${token.name}`}
        >
          Revoke
        </Button>
      </Group>
    </Paper>
  );
}

interface TokenFields {
  name: string;
  scope: ApiTokenScope;
  /** The Select's value: a number of days, or "never". */
  lifetime: string;
}

const lifetimeOptions = [
  ...apiTokenLifetimes.map((days) => ({ value: String(days), label: `${days} days` })),
  { value: 'never', label: 'Never expires' },
];

function toForm(fields: TokenFields): ApiTokenCreate {
  const days = apiTokenLifetimes.find((option) => String(option) === fields.lifetime) ?? null;
  return {
    name: fields.name.trim(),
    scope: fields.scope,
    expires_in_days: fields.lifetime === 'never' ? null : days,
  };
}

function CreateTokenForm({ onCreated, onDone }: { onCreated: () => void; onDone: () => void }) {
  const create = useCreateApiToken();
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  const [refusal, setRefusal] = useState<unknown>(null);
  const form = useFocusFirstError(
    useForm<TokenFields>({
      mode: 'controlled',
      initialValues: { name: '', scope: 'read', lifetime: String(DEFAULT_API_TOKEN_LIFETIME_DAYS) },
      validate: (values) => {
        const errors = validateWith(apiTokenCreateSchema)(toForm(values));
        return errors.expires_in_days ? { ...errors, lifetime: errors.expires_in_days } : errors;
      },
      enhanceGetInputProps: markInvalidFields,
    }),
  );

  const warningId = useId();
  const copyButton = useRef<HTMLButtonElement>(null);
  // The form that had the focus is gone: without this it falls to the page and a screen reader hears
  // nothing of the token. The warning is read with the button, and as an alert (Mantine's role) besides.
  useEffect(() => {
    if (created) copyButton.current?.focus();
  }, [created]);

  if (created) {
    return (
      <Stack gap="md" data-testid="api-token-created">
        <Alert id={warningId} color="yellow" variant="light" title="Copy your token now">
          This is the only time it is shown. Store it somewhere safe; if you lose it, revoke it and create
          another.
        </Alert>
        <CopyMessage
          label="API token"
          text={created.token}
          buttonRef={copyButton}
          buttonDescribedBy={warningId}
        />
        <Group justify="flex-end">
          <Button onClick={onDone}>Done</Button>
        </Group>
      </Stack>
    );
  }

  const submit = (fields: TokenFields) => {
    setRefusal(null);
    create.mutate(toForm(fields), {
      onSuccess: (token) => {
        setCreated(token);
        onCreated();
      },
      onError: (error) => {
        const fieldErrors = serverFieldErrors(error, ['name', 'scope', 'expires_in_days'], 'api_token.');
        if (fieldErrors) form.setErrors({ ...fieldErrors, lifetime: fieldErrors.expires_in_days });
        else setRefusal(error);
      },
    });
  };

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        {isApiError(refusal) && isPlanRefusal(refusal) ? <UpgradePrompt error={refusal} /> : null}
        {refusal && !(isApiError(refusal) && isPlanRefusal(refusal)) ? (
          <Alert color="red" variant="light" role="alert">
            {isApiError(refusal) ? refusal.message : 'An unexpected error occurred. Please try again.'}
          </Alert>
        ) : null}
        <TextInput
          label="Name"
          description="What the token is for, e.g. “Inventory spreadsheet”"
          required
          maxLength={60}
          data-autofocus
          {...form.getInputProps('name')}
        />
        <Radio.Group label="Scope" required {...form.getInputProps('scope')}>
          <Stack gap="xs" mt="xs">
            <Radio
              value="read"
              label="Read only"
              description="GET and HEAD requests, and the two plan checks (POST check_feature, check_limit)"
            />
            <Radio
              value="read_write"
              label="Read and write"
              description="Everything you can do in the app, except account, billing, sponsorship and admin settings"
            />
          </Stack>
        </Radio.Group>
        <Select
          label="Expires"
          data={lifetimeOptions}
          allowDeselect={false}
          required
          {...form.getInputProps('lifetime')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create token
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
