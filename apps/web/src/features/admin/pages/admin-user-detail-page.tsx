import {
  type AdminUserDetail,
  adminGrantTierBodySchema,
  adminSuspendBodySchema,
  planGrantedMessage,
  tierIdentifiers,
  tierNameOf,
  tierNames,
} from '@haversack/contracts';
import {
  Anchor,
  Button,
  Card,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { DetailLoadError } from '../../../components/detail-load-error';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { isRecordNotFound } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { useCurrentUser } from '../../../stores/auth-store';
import { useDiscardQuestion } from '../../inventory/hooks/use-discard-question';
import { useUnsavedForm } from '../../inventory/hooks/use-unsaved-form';
import { adminUserActions, adminUserQueryOptions } from '../api/admin-users-api';
import { AdminSessions } from '../components/admin-sessions';
import { BilledPlanNotice } from '../components/billed-plan-notice';
import { DeleteAccountDialog } from '../components/delete-account-dialog';
import { adminDateTime } from '../lib/format';
import { UserStatusBadges } from './admin-users-page';

const tierOptions = tierIdentifiers.map((value) => ({ value, label: tierNames[value] }));

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="md" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** The running sponsorships (patronages) the user gives and receives, the other user linked to their page. */
function Sponsorships({ sponsorships }: { sponsorships: AdminUserDetail['sponsorships'] }) {
  const rows = [
    ...sponsorships.given.map((s) => ({ ...s, verb: 'Gives', preposition: 'to', sponsor: undefined })),
    ...sponsorships.received.map((s) => ({
      ...s,
      verb: 'Receives',
      preposition: 'from',
      sponsor: s.username,
    })),
  ];
  if (rows.length === 0)
    return (
      <Text size="sm" c="dimmed">
        Gives and receives no sponsorship.
      </Text>
    );
  return (
    <Stack gap={4}>
      {rows.map((s) => (
        <Text key={s.id} size="sm">
          {s.verb} {tierNameOf(s.tier)} {s.preposition}{' '}
          <Anchor component={Link} to={`/admin/users/${s.user_id}`} inherit>
            {s.username}
          </Anchor>{' '}
          in {s.party_name} · since {adminDateTime(s.since)}
          {s.paused ? ` · paused while ${s.sponsor ?? 'this user'} is suspended` : ''}
        </Text>
      ))}
    </Stack>
  );
}

type Dialog = 'suspend' | 'tier' | 'revoke' | 'reset' | 'delete' | null;

/** Issue 15, a user's whole picture and what staff may do: suspend, sign out, comp a plan, reset. */
export function AdminUserDetailPage() {
  const { id = '' } = useParams();
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const query = useQuery(adminUserQueryOptions(id));
  usePageTitle(query.data ? `Admin User ${query.data.user.username}` : 'Admin User');
  const [dialog, setDialog] = useState<Dialog>(null);
  const [reason, setReason] = useState('');
  // The Suspend dialog's Reason, said missing when Suspend account is pressed without one.
  const [reasonError, setReasonError] = useState<string | null>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const [tier, setTier] = useState<string | null>(null);
  const closeNow = () => {
    setDialog(null);
    setReason('');
    setReasonError(null);
    setTier(null);
  };
  // spec/01 §8 "You have unsaved changes.": as the app's other forms, a reason typed (or a plan chosen) in
  // Suspend or Grant plan is asked about before Escape, a click outside, ×, Cancel or leaving the page
  // throws it away.
  const typed =
    (dialog === 'suspend' || dialog === 'tier') &&
    (reason.trim() !== '' || (dialog === 'tier' && tier !== null));
  useUnsavedForm(() => typed);
  const { asking, ask, question: discardQuestion } = useDiscardQuestion();
  const closeReasonDialog = () => {
    if (typed) ask(closeNow);
    else closeNow();
  };
  const suspend = () => {
    // The button stays enabled: a disabled one is skipped by the keyboard and says nothing of why.
    // The server's own rule and words for it (the contract's schema), so both say the same.
    const checked = adminSuspendBodySchema.shape.reason.safeParse(reason);
    if (!checked.success) {
      setReasonError(checked.error.issues[0]?.message ?? null);
      reasonRef.current?.focus();
      return;
    }
    act.mutate('suspend');
  };

  const settle = (detail: AdminUserDetail, message: string) => {
    queryClient.setQueryData(adminUserQueryOptions(id).queryKey, detail);
    void queryClient.invalidateQueries({ queryKey: ['admin', 'users', 'list'] });
    closeNow();
    toast.success(message);
  };
  const act = useMutation({
    mutationFn: async (action: 'suspend' | 'unsuspend' | 'revoke' | 'tier' | 'reset') => {
      switch (action) {
        case 'suspend':
          return {
            detail: (await adminUserActions.suspend(id, reason)).data,
            message: 'The account is suspended.',
          };
        case 'unsuspend':
          return {
            detail: (await adminUserActions.unsuspend(id)).data,
            message: 'The suspension is lifted.',
          };
        case 'revoke':
          return {
            detail: (await adminUserActions.revokeSessions(id)).data,
            message: 'Every session of this user has ended and their API tokens are revoked.',
          };
        case 'tier': {
          const chosen = adminGrantTierBodySchema.shape.tier_id.safeParse(tier);
          if (!chosen.success) throw new Error('Choose a plan');
          // The plan before, as this page shows it: a grant of Free is said as that plan's removal.
          const previousTier = query.data?.subscription.tier ?? 'tier_free';
          return {
            detail: (await adminUserActions.grantTier(id, { tier_id: chosen.data, reason })).data,
            message: planGrantedMessage(chosen.data, previousTier),
          };
        }
        case 'reset':
          await adminUserActions.sendPasswordReset(id);
          return { detail: null, message: 'A password reset link is on its way to the user.' };
      }
    },
    onSuccess: ({ detail, message }) => {
      if (detail) settle(detail, message);
      else {
        closeNow();
        toast.success(message);
      }
    },
  });

  if (query.isPending)
    return (
      <Stack gap="sm" aria-busy="true">
        <Text role="status" c="dimmed">
          Loading the user...
        </Text>
        <Skeleton height={120} />
        <Skeleton height={200} />
      </Stack>
    );
  // A refresh that failed keeps the account on screen with a note; an account deleted meanwhile (404)
  // ends the page, as a first load that failed does.
  if (query.isError && (!query.data || isRecordNotFound(query.error)))
    return (
      <DetailLoadError
        error={query.error}
        onRetry={() => void query.refetch()}
        subject="User"
        notFoundText="No account has this id: it may have been deleted, or the link is mistyped."
        back={{ href: '/admin/users', label: 'Back to Users' }}
      />
    );

  const detail = query.data;
  const { user } = detail;
  const isSelf = me?.id === user.id;

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/admin/users" size="sm" className="haversack-touch-target">
        Back to Users
      </Anchor>
      <Stack gap={4}>
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
          {user.email}
        </Title>
        <Text c="dimmed" size="sm">
          {user.username} · joined {adminDateTime(user.created_at)} ·{' '}
          {user.email_verified ? 'email verified' : 'email not verified'}
        </Text>
        <UserStatusBadges user={user} />
        {user.suspended_at ? (
          <Text size="sm" c="red" data-testid="suspension-note">
            Suspended {adminDateTime(user.suspended_at)}: {user.suspended_reason}
          </Text>
        ) : null}
      </Stack>
      {/* The account as last loaded: before acting on it, the admin knows it may have changed since. */}
      <RefreshFailedNote query={query} />

      <Group gap="sm" wrap="wrap">
        {user.suspended_at ? (
          <Button color="green" onClick={() => act.mutate('unsuspend')} loading={act.isPending}>
            Unsuspend
          </Button>
        ) : (
          <Button color="red.9" onClick={() => setDialog('suspend')} disabled={isSelf || user.admin}>
            Suspend
          </Button>
        )}
        <Button variant="default" onClick={() => setDialog('revoke')}>
          Revoke sessions
        </Button>
        <Button variant="default" onClick={() => setDialog('tier')}>
          Grant plan
        </Button>
        <Button variant="default" onClick={() => setDialog('reset')}>
          Send password reset
        </Button>
        <Button color="red.9" onClick={() => setDialog('delete')} disabled={isSelf || user.admin}>
          Delete account
        </Button>
      </Group>
      {isSelf ? (
        <Text size="sm" c="dimmed">
          You cannot suspend or delete your own account.
        </Text>
      ) : user.admin ? (
        <Text size="sm" c="dimmed">
          An admin's account cannot be suspended or deleted: revoke the admin flag first.
        </Text>
      ) : null}

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Section title="Subscription">
          <Text>
            {detail.subscription.tier_name} · {detail.subscription.status}
          </Text>
          <Text size="sm" c="dimmed">
            {detail.subscription.provider === 'local'
              ? 'Demo billing, no payment'
              : detail.subscription.provider
                ? `Billed through ${detail.subscription.provider === 'stripe' ? 'Stripe' : detail.subscription.provider}`
                : detail.subscription.tier === 'tier_free'
                  ? 'No payment'
                  : 'Granted by staff, no payment'}
            {detail.subscription.current_period_end
              ? ` · period ends ${adminDateTime(detail.subscription.current_period_end)}`
              : ''}
            {detail.subscription.cancel_at_period_end ? ' · cancels at period end' : ''}
          </Text>
        </Section>
        <Section title="Parties">
          {detail.parties.length === 0 ? (
            <Text size="sm" c="dimmed">
              In no party.
            </Text>
          ) : (
            <Stack gap={4}>
              {detail.parties.map((party) => (
                <Text key={party.id} size="sm">
                  {party.name} · {party.role}
                  {party.is_archived ? ' · archived' : ''}
                </Text>
              ))}
            </Stack>
          )}
        </Section>
        <Section title="Characters">
          {detail.characters.length === 0 ? (
            <Text size="sm" c="dimmed">
              No characters.
            </Text>
          ) : (
            <Stack gap={4}>
              {detail.characters.map((character) => (
                <Text key={character.id} size="sm">
                  {character.name}
                </Text>
              ))}
            </Stack>
          )}
        </Section>
        <Section title="Sponsorships">
          <Sponsorships sponsorships={detail.sponsorships} />
        </Section>
        <Section title="Recent ledger">
          {detail.recent_transactions.length === 0 ? (
            <Text size="sm" c="dimmed">
              No inventory changes yet.
            </Text>
          ) : (
            <Stack gap={4}>
              {detail.recent_transactions.map((row) => (
                <Text key={row.id} size="sm">
                  {adminDateTime(row.transaction_date)} · {row.summary}
                  {row.source !== 'web' ? ` (${row.source})` : ''}
                </Text>
              ))}
            </Stack>
          )}
        </Section>
      </SimpleGrid>

      <Section title="Sessions">
        <AdminSessions sessions={detail.sessions} />
      </Section>

      <DeleteAccountDialog
        opened={dialog === 'delete'}
        onClose={() => setDialog(null)}
        user={user}
        sponsorshipsGiven={detail.sponsorships.given}
      />

      <Modal
        opened={dialog === 'suspend'}
        onClose={closeReasonDialog}
        closeOnEscape={!asking}
        title="Suspend this account"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack gap="sm">
          <Text size="sm">
            {user.email} will be signed out everywhere at once and cannot sign in until the suspension is
            lifted.
          </Text>
          <Textarea
            ref={reasonRef}
            data-autofocus
            label="Reason"
            description="A reason is needed: it is kept with the suspension."
            required
            value={reason}
            onChange={(e) => {
              setReason(e.currentTarget.value);
              setReasonError(null);
            }}
            error={reasonError}
            autosize
            minRows={2}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={closeReasonDialog}>
              Cancel
            </Button>
            <Button color="red.9" onClick={suspend} loading={act.isPending}>
              Suspend account
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal
        opened={dialog === 'revoke'}
        onClose={() => setDialog(null)}
        title="Revoke every session"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack gap="sm">
          <Text size="sm">
            {user.email} will be signed out on every device and their API tokens will be revoked. They can
            sign in again.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)} data-autofocus>
              Cancel
            </Button>
            <Button color="red.9" onClick={() => act.mutate('revoke')} loading={act.isPending}>
              Revoke sessions
            </Button>
          </Group>
        </Stack>
      </Modal>

      {/* It mails the user at once: asked first, as Revoke sessions is. */}
      <Modal
        opened={dialog === 'reset'}
        onClose={() => setDialog(null)}
        title="Send a password reset"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack gap="sm">
          <Text size="sm">Send a password reset link to {user.email}?</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)} data-autofocus>
              Cancel
            </Button>
            <Button onClick={() => act.mutate('reset')} loading={act.isPending}>
              Send reset link
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal
        opened={dialog === 'tier'}
        onClose={closeReasonDialog}
        closeOnEscape={!asking}
        title="Grant a plan without payment"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack gap="sm">
          <BilledPlanNotice email={user.email} subscription={detail.subscription} />
          <Select
            data-autofocus
            label="Plan"
            placeholder="Choose a plan"
            data={tierOptions}
            value={tier}
            onChange={setTier}
            required
            comboboxProps={{ withinPortal: true }}
          />
          <Textarea
            label="Reason"
            required
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            autosize
            minRows={2}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={closeReasonDialog}>
              Cancel
            </Button>
            <Button
              onClick={() => act.mutate('tier')}
              loading={act.isPending}
              disabled={!tier || !reason.trim()}
            >
              Grant plan
            </Button>
          </Group>
        </Stack>
      </Modal>
      {discardQuestion}
    </Stack>
  );
}
