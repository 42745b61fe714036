import { type EligibleMember, type TierIdentifier, tierNameOf } from '@haversack/contracts';
import { Anchor, Badge, Button, Group, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LoadFailedLine } from '../../../components/load-failed-line';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { toast } from '../../../lib/toast';
import { useAuthStore } from '../../../stores/auth-store';
import {
  eligibleMembersQuery,
  endPatronage,
  partyKeys,
  patronageFeatureQuery,
  sponsorMember,
} from '../api/parties-api';

/** Where the focus goes once a row changed: the control that replaced its button, else its name. */
function focusRow(row: HTMLElement | undefined) {
  const target =
    row?.querySelector<HTMLElement>('button:not(:disabled)') ??
    row?.querySelector<HTMLElement>('[data-row-name]');
  target?.focus();
}

/**
 * spec/01 §7 Patronage: sponsor a member's tier inside this party. Any member whose plan has patronage may
 * sponsor; the GM also sees the panel without it (the upgrade that unlocks it), the other members only
 * once their plan has it, so a player's party page carries no advertisement. An archived party starts no
 * sponsorship (the server refuses it), but one running there can still be ended.
 */
export function PatronagePanel({
  partyId,
  partyName,
  isGm,
  archived = false,
}: {
  partyId: string;
  partyName: string;
  isGm: boolean;
  archived?: boolean;
}) {
  // A sponsorship grants a plan up to the patron's own (the dialog offers the choice); by default their own.
  const patronTier = useAuthStore((state) => state.user?.tier);
  const patronTierName = patronTier ? tierNameOf(patronTier) : 'your plan';
  const queryClient = useQueryClient();
  const feature = useQuery(patronageFeatureQuery());
  const eligible = useQuery({ ...eligibleMembersQuery(partyId), enabled: feature.data === true });
  const refresh = () => queryClient.invalidateQueries({ queryKey: partyKeys.eligible(partyId) });
  const sponsor = useMutation({
    mutationFn: ({
      userId,
      grantedTier,
    }: {
      userId: string;
      username: string;
      grantedTier?: TierIdentifier;
    }) => sponsorMember(partyId, userId, grantedTier),
    onSuccess: async (patronage, { username }) => {
      // The plan the server granted (its default when none was chosen), as the member's badge will name it.
      toast.success(
        `Sponsorship started: ${username} has ${tierNameOf(patronage.granted_tier)} in this party.`,
      );
      await refresh();
    },
  });
  const end = useMutation({
    mutationFn: (patronageId: string) => endPatronage(patronageId),
    onSuccess: async () => {
      toast.success('Sponsorship ended');
      await refresh();
    },
  });
  const [ending, setEnding] = useState<{
    patronageId: string;
    userId: string;
    username: string;
    grantedTier: string | null;
  } | null>(null);
  const [starting, setStarting] = useState<{
    userId: string;
    username: string;
    plans: TierIdentifier[];
  } | null>(null);
  const [grant, setGrant] = useState<TierIdentifier | undefined>(undefined);
  // The server says which plans the patron may grant each member (above theirs, up to the patron's own),
  // not the member's plan itself; the highest is offered first.
  const open = (member: EligibleMember) => {
    const plans = member.grantable_tiers;
    setGrant(plans.at(-1));
    setStarting({ userId: member.user_id, username: member.username, plans });
  };
  const grantName = grant ? tierNameOf(grant) : patronTierName;
  // The button that opened a dialog is replaced once it did its work (Sponsor becomes End sponsorship, or
  // nothing in an archived party): the focus would fall to the page. It lands on that member's row instead,
  // in the commit that closes the dialog, before the page could take it.
  const rows = useRef(new Map<string, HTMLElement>());
  const [landOn, setLandOn] = useState<string | null>(null);
  useLayoutEffect(() => {
    if (landOn === null) return;
    focusRow(rows.current.get(landOn));
    setLandOn(null);
  }, [landOn]);
  if (!isGm && feature.data !== true) return null;

  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-labelledby="patronage-heading"
      data-testid="patronage-panel"
    >
      <Stack gap="sm">
        <Title order={3} size="h5" id="patronage-heading">
          Patronage
        </Title>
        <RefreshFailedNote query={feature} />
        {/* A members' list refresh that failed (after a sponsorship changed) keeps the list it had. */}
        <RefreshFailedNote query={eligible} />
        {feature.isPending ? (
          <TextSkeleton lines={2} />
        ) : failedWithNothingToShow(feature) ? (
          // As the Members section beside it on the Overview tab: the failure, and the way to ask again.
          <LoadFailedLine
            text={`Patronage could not be checked. ${feature.error.message}`}
            onRetry={() => void feature.refetch()}
          />
        ) : feature.data === false ? (
          <Paper withBorder p="sm">
            <Stack gap={4} align="flex-start">
              <Text size="sm">
                Sponsor your players: share your plan's benefits with members of this party.
              </Text>
              <Anchor component={Link} to="/subscription/upgrade?feature=patronage_system" size="sm" fw={600}>
                Upgrade to unlock patronage
              </Anchor>
            </Stack>
          </Paper>
        ) : eligible.isPending ? (
          <TextSkeleton lines={2} />
        ) : failedWithNothingToShow(eligible) ? (
          <LoadFailedLine
            text={`Members could not be loaded. ${eligible.error.message}`}
            onRetry={() => void eligible.refetch()}
          />
        ) : eligible.data.length === 0 ? (
          <Text size="sm" c="dimmed">
            No members to sponsor yet.
          </Text>
        ) : (
          <Stack gap="xs">
            {eligible.data.map((member) => (
              <Group
                key={member.user_id}
                justify="space-between"
                wrap="wrap"
                gap="xs"
                data-testid={`patronage-member-${member.username}`}
                ref={(row) => {
                  if (row) rows.current.set(member.user_id, row);
                  else rows.current.delete(member.user_id);
                }}
              >
                <Group gap="xs">
                  <Text size="sm" fw={600} tabIndex={-1} data-row-name>
                    {member.username}
                  </Text>
                  {/* A sponsorship the member has here; their own plan is theirs to tell, not the panel's. */}
                  {member.sponsored ? (
                    <Badge color="violet" size="sm" tt="none">
                      {member.sponsored_by_you
                        ? `${member.granted_tier ? tierNameOf(member.granted_tier) : patronTierName} (sponsored)`
                        : 'Sponsored'}
                    </Badge>
                  ) : null}
                </Group>
                {/* Named per member: a list of "Sponsor" buttons does not say whom each one sponsors. */}
                {member.sponsored && !member.sponsored_by_you ? (
                  <Text size="sm" c="dimmed">
                    Sponsored by another member
                  </Text>
                ) : member.sponsored && member.patronage_id ? (
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    aria-label={`End sponsorship of ${member.username}`}
                    loading={end.isPending && end.variables === member.patronage_id}
                    onClick={() =>
                      member.patronage_id &&
                      setEnding({
                        patronageId: member.patronage_id,
                        userId: member.user_id,
                        username: member.username,
                        grantedTier: member.granted_tier ?? null,
                      })
                    }
                  >
                    End sponsorship
                  </Button>
                ) : archived ? null : member.grantable_tiers.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    Has your plan or better
                  </Text>
                ) : (
                  <Button
                    size="xs"
                    variant="light"
                    aria-label={`Sponsor ${member.username}`}
                    loading={sponsor.isPending && sponsor.variables.userId === member.user_id}
                    disabled={sponsor.isPending && sponsor.variables.userId !== member.user_id}
                    onClick={() => open(member)}
                  >
                    Sponsor
                  </Button>
                )}
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
      <ConfirmDialog
        opened={starting !== null}
        title="Start sponsorship"
        message={`${starting?.username ?? 'This member'} gets ${grantName} in ${partyName} while your plan lasts.`}
        confirmLabel="Sponsor"
        danger={false}
        loading={sponsor.isPending}
        onConfirm={() =>
          starting &&
          sponsor.mutate(
            { userId: starting.userId, username: starting.username, grantedTier: grant },
            {
              onSuccess: () => setLandOn(starting.userId),
              onSettled: () => setStarting(null),
            },
          )
        }
        onClose={() => setStarting(null)}
      >
        {/* Only the plans the server accepts are offered; one possible plan is said, not offered. */}
        {starting && starting.plans.length > 1 ? (
          <Radio.Group
            label="Plan to grant"
            value={grant ?? null}
            onChange={(value) => setGrant(starting.plans.find((plan) => plan === value))}
          >
            <Group gap="md" mt={4}>
              {starting.plans.map((plan) => (
                <Radio key={plan} value={plan} label={tierNameOf(plan)} />
              ))}
            </Group>
          </Radio.Group>
        ) : grant ? (
          <Text size="sm" data-testid="sponsor-plan">
            Plan: {tierNameOf(grant)}
          </Text>
        ) : null}
      </ConfirmDialog>
      <ConfirmDialog
        opened={ending !== null}
        title="End sponsorship"
        message={`${ending?.username ?? 'This member'} loses ${
          ending?.grantedTier ? tierNameOf(ending.grantedTier) : 'the plan you granted them'
        } in this party at once.`}
        confirmLabel="End sponsorship"
        danger
        loading={end.isPending}
        onConfirm={() =>
          ending &&
          end.mutate(ending.patronageId, {
            onSuccess: () => setLandOn(ending.userId),
            onSettled: () => setEnding(null),
          })
        }
        onClose={() => setEnding(null)}
      />
    </Paper>
  );
}
