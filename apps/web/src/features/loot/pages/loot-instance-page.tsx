import { type LootInstance, lootMessages, partyMessages } from '@haversack/contracts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useFocusReturn } from '@mantine/hooks';
import { IconArrowsSplit, IconPencil } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { DetailLoadError } from '../../../components/detail-load-error';
import { PageBreadcrumbs } from '../../../components/page-breadcrumbs';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { isRecordNotFound } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import { useFocusReturnOr } from '../../../lib/use-focus-return-or';
import { refusedButtonProps, SpentAllowanceNote } from '../../inventory/components/spent-allowance-note';
import { partyActionAt, useAllowanceSpentAt } from '../../inventory/hooks/use-spent-allowances';
import { partyQuery } from '../../parties/api/parties-api';
import { RealtimeIndicator } from '../../realtime/components/realtime-indicator';
import { useLootRevealWatch } from '../../realtime/hooks/use-loot-reveal-watch';
import { usePartyChannels } from '../../realtime/hooks/use-party-channels';
import { ShareButton } from '../../shares/components/share-button';
import { lootInstanceQuery } from '../api/loot-api';
import { partyLootPath } from '../components/deploy-loot-dialog';
import { DistributeLootDialog } from '../components/distribute-loot-dialog';
import { HiddenBadge, LootFacts } from '../components/loot-card';
import { LootEditDialog } from '../components/loot-edit-dialog';
import { LootManageActions } from '../components/loot-instance-actions';
import { coinUnits, distributedLine, itemUnits, lootContentsLabel } from '../components/loot-instance-format';
import { LootInstanceItems } from '../components/loot-instance-items';
import { useLootTaker } from '../components/loot-instance-taker';
import { type LootPick, TakeLootDialog } from '../components/take-loot-dialog';

/** Why the GM cannot distribute this loot (yet), or null when they can. */
function distributeBlocker(loot: LootInstance): string | null {
  if (loot.distributed_at) return lootMessages.alreadyDistributed;
  if (!loot.is_revealed) return lootMessages.revealBeforeDistributing;
  if (loot.container.item_instances.length === 0) return lootMessages.nothingToDistribute;
  return null;
}

/**
 * Who has had something from the loot (spec/02 §3 claimed_by). While stacks are still there to take, they
 * have not claimed "the loot", only part of it.
 */
function claimedByLabel(loot: LootInstance): string {
  return loot.container.item_instances.length > 0 ? 'Received so far:' : 'Claimed by:';
}

/**
 * /loot/instances/{id}: one loot of a party. Members who may take see its contents with Take and Claim;
 * the GM also reveals, hides, edits, distributes and deletes it. The page follows the party live, so an
 * item taken by someone else leaves the list at once (and a loot hidden or deleted meanwhile is gone).
 */
export function LootInstancePage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const query = useQuery(lootInstanceQuery(id));
  const loot = query.data;
  usePageTitle(loot?.name ?? 'Loot');
  const realtime = usePartyChannels(loot?.party_id ?? null);
  // Opened while hidden, the page never learnt the loot's party: it waits for a reveal in any of mine.
  useLootRevealWatch(id, query.isError && !loot && isRecordNotFound(query.error));
  // `can_manage` is the party's GM, whom the server lets take and claim for every character of the party.
  const taker = useLootTaker(loot?.can_take ? loot.party_id : null, { forAnyCharacter: loot?.can_manage });
  // Who may not take is told why, as the server says it (loot.policy): an observer for the role, whatever
  // characters they have (DESIGN §4), anyone else for want of a character.
  // In an archived party nothing can be taken, claimed or managed (the server refuses with
  // partyMessages.archived): the page says so, as the party page does, and offers none of it.
  const party = useQuery({ ...partyQuery(loot?.party_id ?? ''), enabled: loot !== undefined });
  const archived = party.data?.is_archived === true;
  const cannotTake =
    party.data?.user_role === 'observer' ? lootMessages.observerCannotTake : lootMessages.cannotTake;
  // A take, a claim or a distribution spends the party's allowance (loot.service): at the month's limit
  // they stay in place, disabled, and say why, rather than be refused.
  const allowanceSpent = useAllowanceSpentAt(
    loot && (loot.can_take || loot.can_manage) ? partyActionAt(loot.party_id) : null,
  );
  const [pick, setPick] = useState<LootPick | null>(null);
  const closeTake = useCallback(() => setPick(null), []);
  const [editing, setEditing] = useState(false);
  const [distributing, setDistributing] = useState(false);
  // Edit and Distribute are drawn only while open, so they unmount as they close, before Mantine's Modal can
  // give focus back: the page, which stays, gives it back to the button that opened them. A confirmed
  // distribution removes Distribute (the loot is shared out): focus goes to the contents it emptied.
  const contentsHeading = useRef<HTMLHeadingElement>(null);
  useFocusReturn({ opened: editing });
  useFocusReturnOr({ opened: distributing, fallback: contentsHeading });

  if (query.isPending) {
    return (
      <Stack gap="md" aria-busy="true">
        <Title order={1}>
          <VisuallyHidden>Loading loot</VisuallyHidden>
        </Title>
        <Skeleton height={32} width={240} />
        <Skeleton height={16} width={320} />
        <Skeleton height={200} />
      </Stack>
    );
  }
  // A refresh that failed keeps the loot on screen with a note; a loot gone meanwhile (hidden or deleted:
  // 404) ends the page, as a first load that failed does.
  if (!loot || (query.isError && isRecordNotFound(query.error))) {
    return (
      <DetailLoadError
        error={query.error ?? new Error(lootMessages.instanceNotFound)}
        onRetry={() => void query.refetch()}
        subject="Loot"
        notFoundText="The loot might not exist, or it has not been revealed to you yet."
        back={{ href: '/parties', label: 'Back to Parties' }}
      />
    );
  }

  const blocker = distributeBlocker(loot);
  const distributeRefused = blocker === null && allowanceSpent !== null;
  const distributed = distributedLine(loot);
  const hasCharacter = !taker.isPending && taker.characters.length > 0;
  return (
    <Stack gap="md" maw={960}>
      <PageBreadcrumbs
        trail={[
          { label: 'Parties', to: '/parties' },
          { label: loot.party.name, to: `/parties/${loot.party_id}` },
        ]}
        current={loot.name}
      />
      <Stack gap={6}>
        <Group gap="sm" align="center">
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>
            {loot.name}
          </Title>
          {loot.is_revealed ? null : <HiddenBadge />}
          {/* Issue 16 §3: only revealed loot may be shown outside the party. */}
          {loot.is_revealed ? <ShareButton kind="loot" targetId={loot.id} targetName={loot.name} /> : null}
          {distributed ? (
            <Badge
              color="teal"
              variant="light"
              data-testid="loot-distributed"
              // The date is the line's point: on a narrow card it wraps rather than ending in "…".
              styles={{ root: { maxWidth: '100%', height: 'auto' }, label: { whiteSpace: 'normal' } }}
            >
              {distributed}
            </Badge>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed">
          In{' '}
          <Anchor component={Link} to={`/parties/${loot.party_id}`} size="sm">
            {loot.party.name}
          </Anchor>{' '}
          ·{' '}
          {lootContentsLabel(
            itemUnits(loot.container.item_instances),
            loot.total_value_cp,
            coinUnits(loot.container.item_instances),
          )}
        </Text>
        <LootFacts loot={loot} />
        {loot.description ? <Text size="sm">{loot.description}</Text> : null}
        {loot.claimed_by.length > 0 ? (
          <Text size="sm" data-testid="loot-claimed-by">
            <Text span fw={600} size="sm">
              {claimedByLabel(loot)}
            </Text>{' '}
            {loot.claimed_by.map((c) => c.name).join(', ')}
          </Text>
        ) : null}
        <RealtimeIndicator status={realtime.status} />
      </Stack>
      <RefreshFailedNote query={query} />

      {archived ? (
        <Alert role="note" variant="light" color="gray" data-testid="loot-party-archived">
          {party.data?.is_gm ? partyMessages.archivedForGm : partyMessages.archived}
        </Alert>
      ) : null}

      {loot.can_manage && !archived ? (
        <Paper withBorder p="sm" data-testid="loot-gm-panel">
          <Stack gap="xs">
            <LootManageActions
              loot={loot}
              size="sm"
              onDeleted={() => navigate(partyLootPath(loot.party_id), { replace: true })}
            >
              <Button
                size="sm"
                variant="light"
                color="gray"
                leftSection={<IconPencil size={16} aria-hidden="true" />}
                onClick={() => setEditing(true)}
              >
                Edit
              </Button>
              {/* Shared out once and for all: the badge says so, and no Distribute stays beside it. */}
              {loot.distributed_at ? null : (
                <Button
                  size="sm"
                  leftSection={<IconArrowsSplit size={16} aria-hidden="true" />}
                  onClick={() => {
                    if (!distributeRefused) setDistributing(true);
                  }}
                  disabled={blocker !== null}
                  aria-describedby={blocker ? 'loot-distribute-blocker' : undefined}
                  {...refusedButtonProps(distributeRefused ? 'loot-distribute-refusal' : null)}
                >
                  Distribute
                </Button>
              )}
            </LootManageActions>
            {blocker && !loot.distributed_at ? (
              <Text size="xs" c="dimmed" id="loot-distribute-blocker">
                {blocker}
              </Text>
            ) : null}
            {distributeRefused && allowanceSpent ? (
              <SpentAllowanceNote
                id="loot-distribute-refusal"
                scope={allowanceSpent}
                testId="distribute-allowance-refusal"
              />
            ) : null}
            {loot.is_revealed ? null : (
              <Text size="xs" c="dimmed">
                Players cannot see this loot until you reveal it.
              </Text>
            )}
          </Stack>
        </Paper>
      ) : null}

      {loot.is_revealed && !archived && (!loot.can_take || (!taker.isPending && !hasCharacter)) ? (
        <Alert role="note" variant="light" color="blue" data-testid="cannot-take">
          {cannotTake}
        </Alert>
      ) : null}

      <Stack gap="xs">
        <Title order={2} size="h3" ref={contentsHeading} tabIndex={-1}>
          Contents
        </Title>
        <LootInstanceItems
          loot={loot}
          canTake={loot.can_take && !archived && (taker.isPending || hasCharacter)}
          disabled={taker.isPending}
          allowanceSpent={allowanceSpent}
          takeOpen={pick !== null}
          onPick={setPick}
        />
      </Stack>

      <TakeLootDialog loot={loot} pick={pick} taker={taker} onClose={closeTake} />
      {editing ? <LootEditDialog loot={loot} opened onClose={() => setEditing(false)} /> : null}
      {distributing ? (
        <DistributeLootDialog loot={loot} opened onClose={() => setDistributing(false)} />
      ) : null}
    </Stack>
  );
}
