import { type Party, type PartyMember, roleLabels } from '@haversack/contracts';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorPanel } from '../../../components/error-panel';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { formatWhen } from '../../../lib/format';
import { isApiError } from '../../../lib/http-client';
import { listReset } from '../../../lib/list-reset';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { toast } from '../../../lib/toast';
import { useStockFocus } from '../../../lib/use-stock-focus';
import { useCurrentUser } from '../../../stores/auth-store';
import {
  type AssignableRole,
  changeMemberRole,
  handOverParty,
  partyKeys,
  partyMembersQuery,
  removeMember,
} from '../api/parties-api';
import { LeavePartyButton } from './leave-party-button';

/**
 * For the GM, before the session: the members who can only look at the party stash. Acting on it needs
 * party_collaboration on the plan that applies to them in this party, their own or a sponsor's (DESIGN §5,
 * decisions "What each feature flag gates"); observers only read anyway. The server tells the GM, on the
 * members list, whether each member's plan there has it, not which plan that is (a plan is the member's
 * own business). The GM's own row is theirs to read on their subscription page. Answers the user ids.
 */
function membersWithoutStash(members: PartyMember[] | undefined, myId: string | undefined): Set<string> {
  return new Set(
    (members ?? [])
      .filter((m) => m.party_collaboration === false && m.role !== 'observer' && m.user_id !== myId)
      .map((m) => m.user_id),
  );
}

const assignableRoles: AssignableRole[] = ['player', 'manager', 'observer'];

/**
 * spec/02 §2 Members tab: cards with role and joined date; the GM changes roles and removes members, and
 * the party's owner (its `game_master_id`) may hand it over to another member.
 */
export function PartyMembersTab({ party }: { party: Party }) {
  const query = useQuery(partyMembersQuery(party.id));
  const queryClient = useQueryClient();
  const me = useCurrentUser();
  const headingId = useId();
  const [toRemove, setToRemove] = useState<PartyMember | null>(null);
  const [toReceive, setToReceive] = useState<PartyMember | null>(null);
  const [handOverError, setHandOverError] = useState<string | null>(null);
  const isOwner = me !== null && me.id === party.game_master_id;
  // The owner cannot leave (they hand the party over first); a GM who does not own it may.
  const canLeave = !party.is_gm || (me !== null && !isOwner);
  // An archived party refuses every edit, this one too.
  const canHandOver = isOwner && !party.is_archived;
  const withoutStash = membersWithoutStash(party.is_gm ? query.data : undefined, me?.id);
  // A removed member's card goes with its Remove button: focus goes to the next member's Remove, else the
  // one before, else the Members heading, instead of falling to the page (WCAG 2.4.3), as after a revoke.
  const removable = (query.data ?? []).filter((member) => party.is_gm && member.role !== 'gm');
  const removeFocus = useStockFocus<HTMLHeadingElement>(
    removable.map((member) => member.user_id),
    toRemove !== null,
  );

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: partyKeys.members(party.id) }),
      queryClient.invalidateQueries({ queryKey: partyKeys.detail(party.id) }),
    ]);
  const roleMutation = useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: AssignableRole }) =>
      changeMemberRole(party.id, userId, role),
    onSuccess: async (_, { role }) => {
      toast.success(`Role changed to ${roleLabels[role]}`);
      await refresh();
    },
  });
  const handOverMutation = useMutation({
    mutationFn: (member: PartyMember) => handOverParty(party.id, member.user_id),
    onSuccess: async (_, member) => {
      toast.success(`${member.user.username} is now the Game Master of ${party.name}`);
      setToReceive(null);
      await Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: partyKeys.lists() })]);
    },
    onError: async (error) => {
      // Refusals the client toasts itself (403, 404) already show; a VALIDATION_ERROR (the member has
      // left meanwhile, their plan runs as many parties as it allows) is said in the dialog, which stays
      // open to choose another member or to cancel.
      if (isApiError(error) && !error.toastable) setHandOverError(error.details[0]?.message ?? error.message);
      await refresh();
    },
  });
  const removeMutation = useMutation({
    mutationFn: (userId: string) => removeMember(party.id, userId),
    onSuccess: async () => {
      toast.success('Member removed from the party');
      setToRemove(null);
      await refresh();
    },
  });

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2} size="h3" ref={removeFocus.list} tabIndex={-1} id={headingId}>
          Members ({query.data?.length ?? party.member_count})
        </Title>
        {canLeave ? <LeavePartyButton party={party} /> : null}
      </Group>
      {canHandOver && (query.data?.length ?? party.member_count) > 1 ? (
        <Text size="sm" c="dimmed">
          You run this party. To leave it, make another member its Game Master first.
        </Text>
      ) : null}
      {withoutStash.size > 0 && !party.is_archived ? (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconAlertTriangle aria-hidden="true" />}
          data-testid="stash-access-summary"
          // A standing note about the party, not news: Mantine's default alert role would interrupt a screen
          // reader each time the tab opens.
          role="note"
        >
          <Text size="sm">
            {withoutStash.size === 1 ? '1 member' : `${withoutStash.size} members`} can only look at the party
            stash: using it needs Party collaboration on their own plan, or a sponsor in this party (see
            Patronage on the Overview tab).
          </Text>
        </Alert>
      ) : null}
      <RefreshFailedNote query={query} />
      {query.isPending ? (
        <div>
          <VisuallyHidden role="status">Loading members</VisuallyHidden>
          <TextSkeleton lines={4} />
        </div>
      ) : failedWithNothingToShow(query) ? (
        <ErrorPanel
          title="Failed to load members"
          message={query.error.message}
          onRetry={() => void query.refetch()}
        />
      ) : (
        // A list named by the heading above it ("Members (3)"), a card a member: a screen reader says how
        // many and steps from one to the next.
        <SimpleGrid
          cols={{ base: 1, sm: 2, lg: 3 }}
          spacing="md"
          component="ul"
          aria-labelledby={headingId}
          style={listReset}
        >
          {query.data.map((member) => (
            <Card key={member.id} withBorder padding="md" component="li" data-testid="member-card">
              <Stack gap="xs">
                {/* A long name pushes the role below it rather than cutting "Game Master" short. */}
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Text fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                    {member.user.username}
                  </Text>
                  <Badge variant="light" color="violet" style={{ flexShrink: 0, overflow: 'visible' }}>
                    {roleLabels[member.role]}
                  </Badge>
                </Group>
                <Text size="sm" c="dimmed">
                  Joined {formatWhen(member.created_at, 'date')}
                </Text>
                {member.character_details.length > 0 ? (
                  <Text size="sm">Characters: {member.character_details.map((c) => c.name).join(', ')}</Text>
                ) : null}
                {withoutStash.has(member.user_id) && !party.is_archived ? (
                  <Group gap={6} wrap="nowrap" align="flex-start" data-testid="member-stash-access">
                    <IconAlertTriangle
                      size={16}
                      aria-hidden="true"
                      color="var(--mantine-color-yellow-filled)"
                      style={{ flexShrink: 0, marginTop: 2 }}
                    />
                    <Text size="sm">
                      Can’t use the party stash: their plan has no Party collaboration and nobody sponsors
                      them here.
                    </Text>
                  </Group>
                ) : null}
                {(party.is_gm && member.role !== 'gm') || (canHandOver && member.user_id !== me.id) ? (
                  <Group gap="sm" align="flex-end" wrap="wrap">
                    {party.is_gm && member.role !== 'gm' ? (
                      <>
                        <Select
                          label={`Role of ${member.user.username}`}
                          size="xs"
                          w={150}
                          data={assignableRoles.map((role) => ({ value: role, label: roleLabels[role] }))}
                          value={member.role}
                          allowDeselect={false}
                          // Read-only rather than disabled while a change is saved: a disabled control drops
                          // the keyboard's focus to the page (decisions: focus is never left on nothing).
                          readOnly={roleMutation.isPending}
                          aria-busy={roleMutation.isPending || undefined}
                          onChange={(value) => {
                            if (value && value !== member.role && !roleMutation.isPending)
                              roleMutation.mutate({ userId: member.user_id, role: value as AssignableRole });
                          }}
                        />
                        <Button
                          {...removeFocus.tradeButton(
                            member.user_id,
                            removable.findIndex((m) => m.user_id === member.user_id),
                          )}
                          size="xs"
                          variant="light"
                          color="red"
                          onClick={() => setToRemove(member)}
                          aria-label={`Remove ${member.user.username}`}
                        >
                          Remove
                        </Button>
                      </>
                    ) : null}
                    {canHandOver && member.user_id !== me.id ? (
                      <Button
                        size="xs"
                        variant="light"
                        onClick={() => setToReceive(member)}
                        aria-label={`Make Game Master: ${member.user.username}`}
                      >
                        Make Game Master
                      </Button>
                    ) : null}
                  </Group>
                ) : null}
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <ConfirmDialog
        opened={toRemove !== null}
        title="Remove member"
        message={`Remove ${toRemove?.user.username ?? ''} from ${party.name}? Their characters leave the party too.`}
        confirmLabel="Remove"
        loading={removeMutation.isPending}
        onClose={() => setToRemove(null)}
        onConfirm={() => toRemove && removeMutation.mutate(toRemove.user_id)}
      />
      <ConfirmDialog
        opened={toReceive !== null}
        title="Hand over the party"
        message={`Hand ${party.name} over to ${toReceive?.user.username ?? ''}? They become its Game Master and can manage everything; you stay a GM and can then leave the party.`}
        confirmLabel="Make Game Master"
        danger={false}
        loading={handOverMutation.isPending}
        error={handOverError}
        onClose={() => {
          setToReceive(null);
          setHandOverError(null);
        }}
        onConfirm={() => {
          setHandOverError(null);
          if (toReceive) handOverMutation.mutate(toReceive);
        }}
      />
    </Stack>
  );
}
