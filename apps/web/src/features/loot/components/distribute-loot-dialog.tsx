import {
  type DistributionMode,
  distributionModes,
  formatEnUs,
  type LootDistribution,
  type LootInstance,
  lootContentsFingerprint,
  lootMessages,
  MAX_DISTRIBUTION_RECIPIENTS,
  saturatingSum,
} from '@haversack/contracts';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Divider,
  Group,
  Modal,
  Paper,
  Radio,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconBuildingWarehouse } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { UpgradePrompt } from '../../../components/upgrade-prompt';
import { dialogFirstField } from '../../../lib/dialog-first-field';
import { isApiError } from '../../../lib/http-client';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { toast } from '../../../lib/toast';
import { isPlanRefusal } from '../../../lib/upgrade-link';
import { transactionKeys } from '../../activity/api/transactions-api';
import { partyCharactersQuery } from '../../characters/api/characters-api';
import { inventoryKeys } from '../../inventory/api/inventory-api';
import {
  type DistributeRequest,
  distributeLoot,
  invalidateLoot,
  isStalePreview,
  lootErrorMessage,
  lootKeys,
} from '../api/loot-api';
import {
  distributionModeHelp,
  distributionModeLabels,
  formatCoins,
  formatShareValue,
} from './loot-instance-format';

const stashNote = 'Goes to the party stash: no room';

function sameChoices(a: DistributeRequest, b: DistributeRequest): boolean {
  return (
    a.mode === b.mode &&
    a.characterIds.length === b.characterIds.length &&
    a.characterIds.every((id, index) => b.characterIds[index] === id)
  );
}

function isPlanError(error: unknown): boolean {
  return isApiError(error) && isPlanRefusal(error);
}

/** Who would get what: a recipient per card, each item with its value, and where it lands. */
function DistributionPreview({ result }: { result: LootDistribution }) {
  return (
    <Stack gap="sm" data-testid="distribution-preview" aria-live="polite">
      <Alert role="note" variant="light" color="blue">
        {lootMessages.previewed}
      </Alert>
      {result.conversion ? (
        <Text size="sm" data-testid="distribution-conversion">
          Coins changed first to share evenly: {formatCoins(result.conversion.taken)} into{' '}
          {formatCoins(result.conversion.made)}.
        </Text>
      ) : null}
      {result.recipients.map((recipient) => (
        <Paper
          key={recipient.character_id}
          withBorder
          p="sm"
          data-testid="distribution-recipient"
          data-character-id={recipient.character_id}
        >
          <Stack gap={6}>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {recipient.name}
              </Text>
              <Text fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="recipient-value">
                {formatShareValue(recipient.value_cp)}
              </Text>
            </Group>
            <StashShare items={recipient.items} />
            {recipient.items.length === 0 ? (
              <Text size="sm" c="dimmed">
                Nothing this time.
              </Text>
            ) : (
              <Stack gap={4} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                {recipient.items.map((item) => (
                  <li key={`${item.item_template_id}:${item.container_id}:${item.name}`}>
                    <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                      <Stack gap={2} style={{ minWidth: 0 }}>
                        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                          {formatEnUs(item.quantity)} × {item.name}
                        </Text>
                        {item.destination === 'party_stash' ? (
                          <Badge
                            size="sm"
                            variant="light"
                            color="orange"
                            leftSection={<IconBuildingWarehouse size={12} aria-hidden="true" />}
                            data-testid="stash-overflow"
                            style={{ textTransform: 'none', maxWidth: '100%' }}
                          >
                            {stashNote}
                          </Badge>
                        ) : null}
                      </Stack>
                      <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                        {formatShareValue(item.value_cp)}
                      </Text>
                    </Group>
                  </li>
                ))}
              </Stack>
            )}
          </Stack>
        </Paper>
      ))}
      <Group justify="space-between">
        <Text size="sm">Total</Text>
        <Text size="sm" fw={700}>
          {formatShareValue(result.total_value_cp)}
        </Text>
      </Group>
    </Stack>
  );
}

/** How much of a recipient's share waits in the party stash (no room with them), so the figure adds up. */
function StashShare({ items }: { items: LootDistribution['recipients'][number]['items'] }) {
  const stashed = saturatingSum(
    items.filter((item) => item.destination === 'party_stash').map((item) => item.value_cp),
  );
  if (stashed === 0) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="recipient-stash-value">
      {formatShareValue(stashed)} of it goes to the party stash.
    </Text>
  );
}

/**
 * The GM shares a loot among the party's characters (spec/02 §3 Distribute, DESIGN §4 modes): choose the
 * characters and the mode, Preview (nothing moves), then Confirm distribution, which sends the preview's
 * seed back so a random deal comes out the same. Any change to the choices drops the preview.
 *
 * Confirming does what the preview showed or nothing: it sends back the preview's fingerprint of the
 * loot's contents, and the server refuses (409) if a take or claim changed them since. The loot given
 * here is the page's live one, so such a change is also seen as it happens; either way the dialog says
 * the loot changed and shows a fresh preview in place of the stale one.
 */
export function DistributeLootDialog({
  loot,
  opened,
  onClose,
}: {
  loot: Pick<LootInstance, 'id' | 'party_id' | 'name' | 'container'>;
  opened: boolean;
  onClose: () => void;
}) {
  const phone = useMediaQuery('(max-width: 47.99em)');
  const queryClient = useQueryClient();
  const characters = useQuery({ ...partyCharactersQuery(loot.party_id), enabled: opened });
  const party = characters.data?.characters ?? [];
  // Null until the GM changes it: every character of the party.
  const [picked, setPicked] = useState<string[] | null>(null);
  const [mode, setMode] = useState<DistributionMode>('even');
  // In the party's order, whatever order they were ticked in; a character who left drops out.
  const chosen = party.filter((c) => picked === null || picked.includes(c.id)).map((c) => c.id);
  const request: DistributeRequest = { lootId: loot.id, characterIds: chosen, mode, preview: true };

  // Why the preview on screen is a fresh one: the loot changed under the one the GM was reading.
  const [changed, setChanged] = useState<string | null>(null);
  // What the loot holds now (the page's live copy), and the last change a fresh preview was made for.
  const liveFingerprint = lootContentsFingerprint(loot.container.item_instances);
  const remade = useRef<string | null>(null);
  const preview = useMutation({
    mutationFn: (previewed: DistributeRequest) => distributeLoot(previewed),
    onError: (error) => {
      if (!isPlanError(error)) toast.error(lootErrorMessage(error, lootMessages.distributeFailed));
    },
  });
  // The preview stands for exactly the choices it was made with; the party changing under it drops it too.
  const previewed =
    preview.data && preview.variables && sameChoices(preview.variables, request) ? preview.data : null;
  const confirm = useMutation({
    mutationFn: (confirmed: DistributeRequest) => distributeLoot(confirmed),
    onSuccess: (_result, confirmed) => {
      // Everything was shared out: the page shows it at once, without Take and Claim on stacks that are
      // gone, rather than after its refetch (seconds on a slow connection).
      queryClient.setQueryData(lootKeys.instance(loot.id), (old: LootInstance | undefined) =>
        old
          ? {
              ...old,
              distributed_at: new Date().toISOString(),
              distribution_mode: confirmed.mode,
              container: { ...old.container, item_instances: [] },
              items_count: 0,
              total_value_cp: 0,
            }
          : old,
      );
      toast.success(lootMessages.distributed);
      onClose();
    },
    onError: (error, confirmed) => {
      if (isStalePreview(error)) {
        // Nothing moved: say so here and preview the same choices again, against the loot as it is now.
        setChanged(lootErrorMessage(error, lootMessages.changedSincePreview));
        // The page's loot may not have caught up yet: its change is the one being answered here.
        remade.current = liveFingerprint;
        const { lootId, characterIds, mode } = confirmed;
        preview.mutate({ lootId, characterIds, mode, preview: true });
        return;
      }
      if (!isPlanError(error)) toast.error(lootErrorMessage(error, lootMessages.distributeFailed));
    },
    onSettled: async () => {
      // Recipients' containers and, on overflow, the party stash: every container on screen.
      await Promise.all([
        invalidateLoot(queryClient, loot.party_id, loot.id),
        queryClient.invalidateQueries({ queryKey: inventoryKeys.all }),
        queryClient.invalidateQueries({ queryKey: transactionKeys.all }),
      ]);
    },
  });
  const resetPreview = () => {
    preview.reset();
    confirm.reset();
    setChanged(null);
  };
  // The loot's live event (a take, a claim) refreshes the page's loot: a preview of other contents is
  // made again, once per change seen, so the GM never confirms from one that no longer holds.
  const previewedFingerprint = previewed?.contents_fingerprint;
  const { mutate: remake, isPending: previewing } = preview;
  const settling = confirm.isPending || confirm.isSuccess;
  useEffect(() => {
    if (!previewedFingerprint || !preview.variables || previewing || settling) return;
    if (previewedFingerprint === liveFingerprint || remade.current === liveFingerprint) return;
    remade.current = liveFingerprint;
    setChanged(lootMessages.changedWhileOpen);
    remake(preview.variables);
  }, [liveFingerprint, previewedFingerprint, preview.variables, previewing, settling, remake]);
  // A stale preview's refusal is told by the notice above the fresh preview, not as a failure.
  const failure = (isStalePreview(confirm.error) ? null : confirm.error) ?? preview.error;
  const busy = preview.isPending || confirm.isPending;
  const tooMany = chosen.length > MAX_DISTRIBUTION_RECIPIENTS;
  const canPreview = chosen.length > 0 && !tooMany && !busy;

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={`Distribute ${loot.name}`}
      closeButtonProps={{ 'aria-label': 'Close' }}
      fullScreen={phone === true}
      size="lg"
      centered
    >
      <Stack gap="md">
        <RefreshFailedNote query={characters} />
        {characters.isPending ? (
          <Skeleton height={96} />
        ) : failedWithNothingToShow(characters) ? (
          <ErrorPanel
            title="Unable to load characters"
            message="The party's characters could not be loaded."
            onRetry={() => void characters.refetch()}
          />
        ) : party.length === 0 ? (
          <Alert role="note" variant="light" color="blue">
            This party has no characters to share the loot with yet.
          </Alert>
        ) : (
          <Checkbox.Group
            label="Share among"
            description={`${chosen.length} of ${party.length} characters`}
            value={chosen}
            onChange={(value) => {
              setPicked(value);
              resetPreview();
            }}
            error={
              chosen.length === 0
                ? 'Choose at least one character'
                : tooMany
                  ? `Share among at most ${MAX_DISTRIBUTION_RECIPIENTS} characters`
                  : undefined
            }
          >
            {/* Two columns from a tablet up: a party of eight keeps Preview within the first screen. */}
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing={6} mt="xs">
              {party.map((character, index) => (
                <Checkbox
                  key={character.id}
                  // The dialog starts on its first question, who shares, rather than on its close button.
                  {...(index === 0 ? dialogFirstField : {})}
                  value={character.id}
                  label={character.name}
                  description={character.player_name ?? undefined}
                  disabled={busy}
                />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
        )}
        <Radio.Group
          label="How to share"
          value={mode}
          onChange={(value) => {
            setMode(value as DistributionMode);
            resetPreview();
          }}
        >
          <Stack gap="xs" mt="xs">
            {distributionModes.map((value) => (
              <Radio
                key={value}
                value={value}
                label={distributionModeLabels[value]}
                description={distributionModeHelp[value]}
                disabled={busy}
              />
            ))}
          </Stack>
        </Radio.Group>
        {changed && (previewed || preview.isPending) ? (
          <Alert color="orange" variant="light" role="status" data-testid="distribution-changed">
            {changed}
          </Alert>
        ) : null}
        {previewed ? <DistributionPreview result={previewed} /> : null}
        {failure && isPlanError(failure) ? (
          <UpgradePrompt error={failure} />
        ) : failure ? (
          <Alert color="red" variant="light" role="alert" data-testid="distribute-error">
            {lootErrorMessage(failure, lootMessages.distributeFailed)}
          </Alert>
        ) : null}
        <Divider />
        {/* Stuck to the dialog's bottom as every dialog's actions are (global.css), though not a form's. */}
        <Group justify="flex-end" gap="sm" className="haversack-dialog-actions">
          <Button variant="default" onClick={onClose} disabled={confirm.isPending}>
            Cancel
          </Button>
          <Button
            variant={previewed ? 'default' : 'filled'}
            onClick={() => {
              confirm.reset();
              setChanged(null);
              preview.mutate(request);
            }}
            loading={preview.isPending}
            disabled={!canPreview}
          >
            Preview
          </Button>
          {previewed && preview.variables ? (
            <Button
              onClick={() =>
                preview.variables &&
                confirm.mutate({
                  ...preview.variables,
                  preview: false,
                  seed: previewed.seed,
                  contentsFingerprint: previewed.contents_fingerprint,
                })
              }
              loading={confirm.isPending}
              disabled={busy && !confirm.isPending}
            >
              Confirm distribution
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Modal>
  );
}
