import { cleanJoinCode, type PartyRole, partyMessages, roleLabels } from '@haversack/contracts';
import { Alert, Anchor, Button, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { TextSkeleton } from '../../../components/loading';
import { UpgradePrompt } from '../../../components/upgrade-prompt';
import { isApiError, isRecordNotFound } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { upgradePathFor } from '../../../lib/upgrade-link';
import { ReportButton } from '../../moderation/components/report-button';
import { joinParty, type PreviewTarget, partyKeys, partyPreviewQuery } from '../api/parties-api';
import { JoinPreviewCard } from '../components/join-preview-card';

/** spec/02 §5, §9: 6 to 8 characters; the preview waits for a 500 ms pause. */
export const JOIN_CODE_MIN = 6;
export const JOIN_CODE_MAX = 8;
export const PREVIEW_DEBOUNCE_MS = 500;

/**
 * spec/02 §5: uppercased, only A–Z and 0–9 kept, at most 8. The limit applies after the clean-up so a
 * pasted " 3fxq-ltlc" keeps all eight characters of its code.
 */
export function normaliseJoinCode(raw: string): string {
  return cleanJoinCode(raw).slice(0, JOIN_CODE_MAX);
}

const limitedRoles: PartyRole[] = ['player', 'observer'];
const allRoles: PartyRole[] = ['player', 'observer', 'manager', 'gm'];
const previewFailedMessage = 'Unable to preview party. Please check the join code and try again.';
const unexpectedJoinError = 'An unexpected error occurred while trying to join the party.';

const isPreviewKey = (key: readonly unknown[]) => key[1] === partyKeys.previews()[1];

interface JoinFailure {
  message: string;
  error: unknown;
}

/** spec/02 §2 Party join (/parties/join). */
export function PartyJoinPage() {
  usePageTitle('Join Party');
  const [searchParams] = useSearchParams();
  const previewId = searchParams.get('preview');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // A shared link carries the code (/parties/join?code=…, share-join-code-dialog.tsx): cleaned as if typed.
  const [code, setCode] = useState(() => normaliseJoinCode(searchParams.get('code') ?? ''));
  const [roleRequest, setRoleRequest] = useState<PartyRole>('player');
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<JoinFailure | null>(null);
  // The code the server said matches no party when joining: it is the field's error until the code changes.
  const [refusedCode, setRefusedCode] = useState<string | null>(null);
  const [debouncedCode] = useDebouncedValue(code, PREVIEW_DEBOUNCE_MS);

  const target: PreviewTarget | null =
    debouncedCode.length >= JOIN_CODE_MIN
      ? { joinCode: debouncedCode }
      : previewId && code === ''
        ? { id: previewId }
        : null;
  const preview = useQuery({ ...partyPreviewQuery(target ?? { joinCode: '' }), enabled: target !== null });
  const previewed = target !== null ? preview.data : undefined;
  const fullAccess = previewed?.join_permission === 'full';
  const roles = fullAccess ? allRoles : limitedRoles;
  const role = roles.includes(roleRequest) ? roleRequest : 'player';
  const codeLooksGood = code.length >= JOIN_CODE_MIN;
  // The code typed found no party: said as the field's error (read with it, aria-invalid), not in a
  // separate alert, and the field no longer says its format looks good.
  const codeNotFound =
    refusedCode === code ||
    (target !== null && 'joinCode' in target && target.joinCode === code && preview.isError && !preview.data);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!codeLooksGood || submitting) return;
    setSubmitting(true);
    setFailure(null);
    setRefusedCode(null);
    try {
      const { party, message } = await joinParty(code, role);
      // The preview on screen may be of the code before the last keystroke (a wrong one, still inside its
      // 500 ms pause): previews are marked stale, not refetched on the way out, so no lookup of a stale
      // code follows the join; the joined party's preview says "member" the next time it is shown.
      await queryClient.cancelQueries({ queryKey: partyKeys.previews() });
      await queryClient.invalidateQueries({ queryKey: partyKeys.previews(), refetchType: 'none' });
      await queryClient.invalidateQueries({
        queryKey: partyKeys.all,
        predicate: (query) => !isPreviewKey(query.queryKey),
      });
      toast.success(message);
      navigate(`/parties/${party.id}?welcome=true`);
    } catch (error) {
      // A form says what went wrong in one place and without a toast, like the other forms: a code that
      // matches no party on the field (the same words as its preview), any other refusal in the alert.
      if (isRecordNotFound(error)) setRefusedCode(code);
      else
        setFailure({
          message: isApiError(error) ? (error.serverMessage ?? error.message) : unexpectedJoinError,
          error,
        });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Stack gap="lg" maw={640}>
      <Stack gap={4}>
        <Title order={1}>Join a Party</Title>
        <Text c="dimmed">Enter the join code your Game Master shared with you.</Text>
      </Stack>

      <Paper withBorder p="lg">
        <form onSubmit={submit} noValidate aria-label="Join a party">
          <Stack gap="md">
            {/* A plan refusal is said once, by the upgrade prompt below with its way out, not again in red. */}
            {failure && !(isApiError(failure.error) && upgradePathFor(failure.error)) ? (
              <Alert color="red" variant="light" title="Failed to Join Party" data-testid="join-error">
                {failure.message}
              </Alert>
            ) : null}
            <UpgradePrompt error={failure?.error} />
            <TextInput
              label="Join Code"
              placeholder="e.g. ABCD2345"
              value={code}
              // No native maxLength: the browser would cut a pasted code, separators included, before
              // normaliseJoinCode removes them; the normaliser holds the field to 8 characters instead.
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              // The code is read character by character (0 or O?): monospace in the box only; the label
              // and messages keep the font of every other form.
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              onChange={(event) => {
                setCode(normaliseJoinCode(event.currentTarget.value));
                setFailure(null);
              }}
              description={
                codeLooksGood ? undefined : `${JOIN_CODE_MIN} to ${JOIN_CODE_MAX} letters and numbers`
              }
              error={
                code.length > 0 && code.length < JOIN_CODE_MIN
                  ? partyMessages.joinCodeTooShort
                  : codeNotFound
                    ? previewFailedMessage
                    : undefined
              }
              data-testid="join-code-input"
            />
            {codeLooksGood && !codeNotFound ? (
              <Text size="sm" data-testid="join-code-ok">
                Join code format looks good
              </Text>
            ) : null}
            <Select
              label="Join as"
              data={roles.map((value) => ({ value, label: roleLabels[value] }))}
              value={role}
              allowDeselect={false}
              onChange={(value) => value && setRoleRequest(value as PartyRole)}
              data-testid="join-role"
            />
            {fullAccess ? (
              <Alert color="yellow" variant="light" data-testid="full-access-warning">
                This party lets anyone with the code join with any role, including Game Master or Manager.
                Pick the role your Game Master expects.
              </Alert>
            ) : null}
            <Group justify="space-between" gap="sm">
              <Anchor component={Link} to="/parties/new" size="sm" className="haversack-touch-target">
                Create Your Own Party
              </Anchor>
              <Button type="submit" disabled={!codeLooksGood || submitting} loading={submitting}>
                Join Party
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>

      {target === null ? null : preview.isPending ? (
        <Paper withBorder p="lg" aria-busy="true">
          <TextSkeleton lines={3} />
        </Paper>
      ) : codeNotFound ? null : preview.isError && !preview.data ? (
        <Alert color="red" variant="light" data-testid="preview-error">
          {previewFailedMessage}
        </Alert>
      ) : previewed ? (
        <JoinPreviewCard preview={previewed} />
      ) : null}
      {target !== null && 'id' in target && previewed && !previewed.is_member ? (
        <Group justify="flex-end">
          <ReportButton targetType="party" targetId={target.id} targetName={previewed.name} />
        </Group>
      ) : null}
      {target !== null && 'id' in target && previewed && !previewed.is_member ? (
        <Text size="sm" c="dimmed">
          Ask the Game Master of {previewed.name} for its join code, then enter it above.
        </Text>
      ) : null}

      <Anchor component={Link} to="/parties/discover" size="sm" className="haversack-touch-target">
        Browse public parties
      </Anchor>
    </Stack>
  );
}
