import { type Announcement, massMailAudiences, tierNames } from '@haversack/contracts';
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Select,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { LinkedText } from '../../../components/linked-text';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { formatCount } from '../../../lib/format';
import { isApiError } from '../../../lib/http-client';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { useUnsavedChanges } from '../../../lib/unsaved-changes';
import {
  adminAnnouncementsQuery,
  communicationsKeys,
  createAnnouncement,
  deleteAnnouncement,
  massMailsQuery,
  previewMassMail,
  sendMassMail,
} from '../api/communications-api';
import { AdminPageHeader } from '../components/admin-page-header';
import { OperationProgress } from '../components/operation-progress';
import { adminDateTime } from '../lib/format';

type Audience = (typeof massMailAudiences)[number];
const audienceLabel = (audience: Audience) =>
  audience === 'all' ? 'All users' : `${tierNames[audience]} plan`;

/** `YYYY-MM-DDTHH:mm` in local time, for a datetime-local input. */
function localInput(date: Date): string {
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}

/** The announcement form's fields the server may name in a refusal: shown on the field itself. */
const announcementFields = ['title', 'body', 'level', 'starts_at', 'ends_at'] as const;

/** A refusal's message for one field of the form, if it names it. */
function fieldError(error: unknown, field: string): string | undefined {
  return isApiError(error) ? error.details.find((d) => d.field === field)?.message : undefined;
}

/** What a refusal says beyond the form's own fields (which show it on the field). */
function formErrorText(error: unknown): string | null {
  if (isApiError(error) && error.details.length > 0) {
    const others = error.details.filter((d) => !(announcementFields as readonly string[]).includes(d.field));
    return others.length > 0 ? others.map((d) => d.message).join(' ') : null;
  }
  return errorText(error);
}

function errorText(error: unknown): string | null {
  if (!error) return null;
  if (isApiError(error)) return error.details.map((d) => d.message).join(' ') || error.message;
  return 'Something went wrong. Please try again.';
}

/** Issue 15 Communications (/admin/communications): banners in the app, and email to users. */
export function CommunicationsPage() {
  usePageTitle('Admin Communications');
  return (
    <Stack gap="lg">
      <AdminPageHeader
        title="Communications"
        description="Announce things in the app, or email all users or one tier."
      />
      <AnnouncementsSection />
      <MassMailSection />
    </Stack>
  );
}

function AnnouncementsSection() {
  const queryClient = useQueryClient();
  const list = useQuery(adminAnnouncementsQuery());
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [level, setLevel] = useState<Announcement['level']>('info');
  const [startsAt, setStartsAt] = useState(() => localInput(new Date()));
  const [endsAt, setEndsAt] = useState('');
  // A draft is lost by leaving the page: the guard asks first (spec/01 §8 "You have unsaved changes.").
  useUnsavedChanges(
    useCallback(
      () => title.trim() !== '' || body.trim() !== '' || endsAt !== '' || level !== 'info',
      [title, body, endsAt, level],
    ),
  );
  const create = useMutation({
    mutationFn: () =>
      createAnnouncement({
        title,
        body,
        level,
        starts_at: new Date(startsAt).toISOString(),
        ends_at: endsAt ? new Date(endsAt).toISOString() : null,
      }),
    onSuccess: () => {
      toast.success('Announcement published.');
      // A fresh form for the next one, so that nothing published reads as a draft left behind.
      setTitle('');
      setBody('');
      setLevel('info');
      setStartsAt(localInput(new Date()));
      setEndsAt('');
      void queryClient.invalidateQueries({ queryKey: communicationsKeys.announcements });
      void queryClient.invalidateQueries({ queryKey: ['announcements'] });
    },
  });
  const [deleting, setDeleting] = useState<Announcement | null>(null);
  const remove = useMutation({
    mutationFn: deleteAnnouncement,
    onSuccess: () => {
      setDeleting(null);
      toast.success('Announcement deleted.');
      void queryClient.invalidateQueries({ queryKey: communicationsKeys.announcements });
    },
  });

  return (
    <Card withBorder padding="md">
      <Title order={2} size="h3" mb="sm">
        Announcements
      </Title>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label="Title"
            required
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            maxLength={120}
            error={fieldError(create.error, 'title')}
          />
          <Textarea
            label="Message"
            value={body}
            onChange={(e) => setBody(e.currentTarget.value)}
            autosize
            minRows={2}
            maxLength={2000}
            error={fieldError(create.error, 'body')}
          />
          <Group gap="sm" align="flex-end" wrap="wrap">
            <Select
              label="Level"
              value={level}
              onChange={(value) => setLevel(value === 'warning' || value === 'critical' ? value : 'info')}
              error={fieldError(create.error, 'level')}
              data={[
                { value: 'info', label: 'Info' },
                { value: 'warning', label: 'Warning' },
                { value: 'critical', label: 'Critical' },
              ]}
              allowDeselect={false}
              w={{ base: '100%', xs: 140 }}
            />
            <TextInput
              type="datetime-local"
              label="Starts"
              required
              value={startsAt}
              onChange={(e) => setStartsAt(e.currentTarget.value)}
              error={fieldError(create.error, 'starts_at')}
              w={{ base: '100%', xs: 220 }}
            />
            <TextInput
              type="datetime-local"
              label="Ends (optional)"
              value={endsAt}
              onChange={(e) => setEndsAt(e.currentTarget.value)}
              error={fieldError(create.error, 'ends_at')}
              w={{ base: '100%', xs: 220 }}
            />
          </Group>
          {formErrorText(create.error) ? <Alert color="red">{formErrorText(create.error)}</Alert> : null}
          <Group>
            <Button type="submit" loading={create.isPending}>
              Publish Announcement
            </Button>
          </Group>
        </Stack>
      </form>

      <Title order={3} size="h4" mt="lg" mb="sm">
        Published
      </Title>
      <RefreshFailedNote query={list} />
      {list.isPending ? (
        <Skeleton h={80} aria-label="Loading announcements" />
      ) : failedWithNothingToShow(list) ? (
        <ErrorPanel
          title="Failed to Load Announcements"
          message={`Unable to fetch the announcements: ${list.error.message}`}
          error={list.error}
          onRetry={() => void list.refetch()}
        />
      ) : list.data.length === 0 ? (
        <EmptyState title="No Announcements" message="Publish one above; it shows as a banner in the app." />
      ) : (
        <Stack gap="xs">
          {list.data.map((a) => (
            <Group key={a.id} justify="space-between" wrap="nowrap" gap="sm" data-testid="announcement-row">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Group gap="xs">
                  <Badge
                    variant="light"
                    color={a.level === 'critical' ? 'red' : a.level === 'warning' ? 'yellow' : 'blue'}
                  >
                    {a.level}
                  </Badge>
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {a.title}
                  </Text>
                  <ShowingBadge announcement={a} />
                </Group>
                {a.body ? (
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                    <LinkedText>{a.body}</LinkedText>
                  </Text>
                ) : null}
                <Text size="xs" c="dimmed">
                  {adminDateTime(a.starts_at)} – {a.ends_at ? adminDateTime(a.ends_at) : 'until deleted'}
                </Text>
              </Stack>
              <Button
                variant="subtle"
                color="red"
                size="xs"
                onClick={() => setDeleting(a)}
                loading={remove.isPending && remove.variables === a.id}
                aria-label={`Delete announcement ${a.title}`}
                style={{ flexShrink: 0 }}
              >
                Delete
              </Button>
            </Group>
          ))}
        </Stack>
      )}
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        title="Delete Announcement"
        message={`Delete “${deleting?.title ?? ''}”? Its banner disappears for every user.`}
        confirmLabel="Delete"
        loading={remove.isPending}
      />
    </Card>
  );
}

function MassMailSection() {
  const queryClient = useQueryClient();
  const recent = useQuery(massMailsQuery());
  const [audience, setAudience] = useState<Audience>('all');
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  /** Sent even to users who turned announcement emails off (a change of terms, a security incident). */
  const [serviceNotice, setServiceNotice] = useState(false);
  /** The recipients counted before sending: the confirmation says how many people the mail reaches. */
  const [recipients, setRecipients] = useState<number | null>(null);
  useUnsavedChanges(useCallback(() => subject.trim() !== '' || body.trim() !== '', [subject, body]));
  const mail = () => ({ audience, subject, body, ...(serviceNotice ? { service_notice: true } : {}) });
  const count = useMutation({
    mutationFn: () => previewMassMail(mail()),
    onSuccess: setRecipients,
  });
  const send = useMutation({
    mutationFn: () => sendMassMail(mail()),
    onSuccess: () => {
      setRecipients(null);
      toast.success('Mail queued; it is sent in the background.');
      setAudience('all');
      setSubject('');
      setBody('');
      setServiceNotice(false);
      void queryClient.invalidateQueries({ queryKey: communicationsKeys.massMails });
    },
    // The refusal (the same mail already going out, say) shows under the form, not behind the dialog.
    onError: () => setRecipients(null),
  });

  return (
    <Card withBorder padding="md">
      <Title order={2} size="h3" mb="sm">
        Email users
      </Title>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          count.mutate();
        }}
      >
        <Stack gap="sm">
          <Select
            label="Send to"
            value={audience}
            onChange={(value) => {
              setAudience(massMailAudiences.find((a) => a === value) ?? 'all');
              setRecipients(null);
            }}
            data={massMailAudiences.map((a) => ({ value: a, label: audienceLabel(a) }))}
            allowDeselect={false}
            w={{ base: '100%', xs: 220 }}
          />
          <TextInput
            label="Subject"
            required
            value={subject}
            onChange={(e) => setSubject(e.currentTarget.value)}
            maxLength={200}
          />
          <Textarea
            label="Message"
            required
            value={body}
            onChange={(e) => setBody(e.currentTarget.value)}
            autosize
            minRows={4}
          />
          <Checkbox
            label="Service notice: send even to users who opted out"
            description="Only for what every user must know (a change to the terms, a security incident). The audit log records it."
            checked={serviceNotice}
            onChange={(e) => {
              setServiceNotice(e.currentTarget.checked);
              setRecipients(null);
            }}
          />
          {recipients === 0 ? (
            <Alert color="yellow">
              {serviceNotice
                ? `Nobody in ${audienceLabel(audience)} has a confirmed address: no mail would be sent.`
                : `Nobody in ${audienceLabel(audience)} has a confirmed address and wants announcement emails: no mail would be sent.`}
            </Alert>
          ) : null}
          {count.error || send.error ? (
            <Alert color="red">{errorText(count.error ?? send.error)}</Alert>
          ) : null}
          <Group>
            <Button type="submit" loading={count.isPending}>
              Send Email
            </Button>
          </Group>
        </Stack>
      </form>
      <ConfirmDialog
        opened={recipients !== null && recipients > 0}
        onClose={() => setRecipients(null)}
        onConfirm={() => send.mutate()}
        title="Send Email"
        message={`This will email ${formatCount(recipients ?? 0)} ${recipients === 1 ? 'user' : 'users'} (${audienceLabel(audience)}) with a confirmed address; unconfirmed addresses are left out. ${serviceNotice ? 'As a service notice it also reaches users who turned announcement emails off.' : 'Users who turned announcement emails off are left out too.'} A sent mail cannot be called back. Send it?`}
        confirmLabel="Send"
        loading={send.isPending}
      />
      <Title order={3} size="h4" mt="lg" mb="sm">
        Recent mailings
      </Title>
      <RefreshFailedNote query={recent} />
      {recent.isPending ? (
        <Skeleton h={60} aria-label="Loading mailings" />
      ) : failedWithNothingToShow(recent) ? (
        <ErrorPanel
          title="Failed to Load Mailings"
          message={`Unable to fetch recent mailings: ${recent.error.message}`}
          error={recent.error}
          onRetry={() => void recent.refetch()}
        />
      ) : recent.data.length === 0 ? (
        <EmptyState title="No Mailings" message="No email has been sent to users from here yet." />
      ) : (
        <Stack gap="md">
          {recent.data.map((operation) => (
            <Stack key={operation.id} gap={4}>
              <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                {typeof operation.params.subject === 'string' ? operation.params.subject : 'Mail'} ·{' '}
                {audienceLabel(massMailAudiences.find((a) => a === operation.params.audience) ?? 'all')}
                {operation.params.service_notice === true ? ' · Service notice' : ''}
              </Text>
              <OperationProgress operation={operation} verb="mails sent" />
            </Stack>
          ))}
        </Stack>
      )}
    </Card>
  );
}

/** Whether the banner shows now, will show, or no longer does: an ended one stays listed until deleted. */
function ShowingBadge({ announcement }: { announcement: Announcement }) {
  const now = Date.now();
  if (announcement.ends_at && Date.parse(announcement.ends_at) <= now)
    return (
      <Badge variant="outline" color="gray">
        Ended
      </Badge>
    );
  if (Date.parse(announcement.starts_at) > now)
    return (
      <Badge variant="outline" color="blue">
        Scheduled
      </Badge>
    );
  return (
    <Badge variant="outline" color="green">
      Showing
    </Badge>
  );
}
