import { PARTY_NOTES_MAX_LENGTH, type PartyNotesUpdate, partyNotesMessages } from '@haversack/contracts';
import { Alert, Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconAlertTriangle, IconUsers } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { formatCount, formatWhen } from '../../../lib/format';
import { isApiError, outcomeUnknown } from '../../../lib/http-client';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { toast } from '../../../lib/toast';
import { useAuthStore } from '../../../stores/auth-store';
import { partyKeys } from '../api/parties-api';
import { partyNotesQuery, savePartyNotes } from '../api/party-notes-api';

export const notesLoadFailedMessage = 'The party notes could not be loaded.';
export const notesEmptyMessage =
  'No notes yet. Quests, debts, names and plans written here are shared with the whole party.';
export const notesReadOnlyMessage = 'You can read these notes but not change them.';

/** The text an error gives the person saving: the server's own sentence where there is one. */
function saveErrorText(error: Error): string {
  if (!isApiError(error)) return 'Failed to save. Please try again.';
  return error.details[0]?.message ?? error.serverMessage ?? error.message;
}

/**
 * Issue 14: the party's shared notes, which the GM and the players edit together. Another member's save
 * arrives live (PartyChannel `notes_updated` refetches the query): it replaces what is shown unless this
 * member is editing, in which case they are told and choose between their text and the other one. A save
 * names the version it started from, so an edit is never overwritten without the person knowing
 * (docs/decisions.md, issue 14).
 */
export function PartyNotesCard({ partyId }: { partyId: string }) {
  const queryClient = useQueryClient();
  const query = useQuery(partyNotesQuery(partyId));
  // null while this member has not changed anything: the card then shows the latest saved notes.
  const [draft, setDraft] = useState<string | null>(null);
  // The version the draft started from, sent with the save.
  const [baseVersion, setBaseVersion] = useState(0);
  const [conflict, setConflict] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (update: PartyNotesUpdate) => savePartyNotes(partyId, update),
    onSuccess: (saved) => {
      queryClient.setQueryData(partyKeys.notes(partyId), saved);
      setDraft(null);
      setConflict(null);
      toast.success(partyNotesMessages.saved);
    },
    onError: (error) => {
      // No answer: the save may have been made. The notes as they stand now tell (see below).
      if (outcomeUnknown(error)) {
        void queryClient.invalidateQueries({ queryKey: partyKeys.notes(partyId) });
        return;
      }
      if (isApiError(error) && error.code === 'CONFLICT') {
        setConflict(error.serverMessage ?? error.message);
        void queryClient.invalidateQueries({ queryKey: partyKeys.notes(partyId) });
      }
    },
  });

  const headingId = `party-notes-heading-${partyId}`;
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  const counterId = useId();
  // The character counter is read with the field, not as a live region at every keystroke. Mantine sets
  // the field's aria-describedby itself (description, error) and overrides one passed to it: the counter's
  // id is added after each render instead.
  useLayoutEffect(() => {
    const field = fieldRef.current;
    if (!field) return;
    const ids = (field.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
    if (!ids.includes(counterId)) field.setAttribute('aria-describedby', [...ids, counterId].join(' '));
  });
  const notes = query.data;
  const text = draft ?? notes?.notes ?? '';
  const editing = draft !== null;
  const otherEditor = notes?.updated_by?.username ?? 'Someone';

  // A save whose answer was lost, found made: the next version is this member's, with the text they sent.
  // It is their own save, not someone else's to choose against.
  const myId = useAuthStore((state) => state.user?.id);
  const lost = save.isError && outcomeUnknown(save.error) ? save.variables : undefined;
  const madeAfterAll =
    lost !== undefined &&
    notes !== undefined &&
    notes.version === lost.version + 1 &&
    notes.updated_by?.id === myId &&
    notes.notes === lost.notes;
  const { reset: resetSave } = save;
  useEffect(() => {
    if (!madeAfterAll || !notes) return;
    setBaseVersion(notes.version);
    setDraft((current) => (current === notes.notes ? null : current));
    resetSave();
    toast.success(partyNotesMessages.saved);
  }, [madeAfterAll, notes, resetSave]);
  // Someone else saved since this member started editing: told live, before they try to save.
  const overtaken = editing && notes !== undefined && notes.version !== baseVersion && !madeAfterAll;

  // Nothing to save (or the notes changed under the edit): the button says so but stays in the tab order,
  // aria-disabled rather than disabled, so the focus is not dropped to the page once a save goes through.
  const cannotSave = !editing || draft === notes?.notes || overtaken || conflict !== null || save.isPending;

  const takeTheirs = () => {
    setDraft(null);
    setConflict(null);
    save.reset();
  };
  const keepMine = () => {
    if (notes) setBaseVersion(notes.version);
    setConflict(null);
    save.reset();
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId} data-testid="party-notes">
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          Party notes
        </Title>
        <RefreshFailedNote query={query} />
        {query.isPending ? (
          <div aria-busy="true">
            <TextSkeleton lines={3} />
          </div>
        ) : failedWithNothingToShow(query) ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden="true" />} role="alert">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{notesLoadFailedMessage}</Text>
              <Button variant="outline" color="red" size="xs" onClick={() => void query.refetch()}>
                Try Again
              </Button>
            </Stack>
          </Alert>
        ) : (
          <>
            <Text size="xs" c="dimmed" data-testid="party-notes-editor">
              {query.data.updated_by && query.data.updated_at
                ? `Last edited by ${query.data.updated_by.username}, ${formatWhen(query.data.updated_at, 'dateTime')}`
                : 'Not edited yet'}
            </Text>

            {query.data.can_edit ? (
              <>
                {conflict || overtaken ? (
                  <Alert
                    color="yellow"
                    variant="light"
                    icon={<IconUsers aria-hidden="true" />}
                    role="alert"
                    title="The notes changed while you were editing"
                  >
                    <Stack gap="xs" align="flex-start">
                      <Text size="sm">
                        {conflict ?? `${otherEditor} saved new notes while you were editing.`}
                      </Text>
                      <Group gap="xs">
                        <Button size="xs" variant="default" onClick={takeTheirs}>
                          Use their version
                        </Button>
                        <Button size="xs" variant="light" onClick={keepMine} disabled={query.isFetching}>
                          Keep mine
                        </Button>
                      </Group>
                    </Stack>
                  </Alert>
                ) : null}
                <Textarea
                  ref={fieldRef}
                  label="Notes for the whole party"
                  placeholder="Quests, debts, names and plans…"
                  value={text}
                  onChange={(event) => {
                    if (!editing) setBaseVersion(query.data.version);
                    setDraft(event.currentTarget.value);
                  }}
                  rows={8}
                  maxLength={PARTY_NOTES_MAX_LENGTH}
                  description={!editing && query.data.notes === '' ? notesEmptyMessage : undefined}
                  error={save.isError && !conflict ? saveErrorText(save.error) : undefined}
                />
                <Group justify="space-between" gap="xs" wrap="wrap">
                  <Text size="xs" c="dimmed" id={counterId}>
                    {`${formatCount(text.length)} / ${formatCount(PARTY_NOTES_MAX_LENGTH)} characters`}
                  </Text>
                  <Group gap="xs">
                    <Button
                      size="sm"
                      variant="default"
                      disabled={!editing || save.isPending}
                      onClick={takeTheirs}
                    >
                      Discard changes
                    </Button>
                    <Button
                      size="sm"
                      loading={save.isPending}
                      data-disabled={cannotSave || undefined}
                      aria-disabled={cannotSave || undefined}
                      onClick={() => {
                        if (!cannotSave) save.mutate({ notes: text, version: baseVersion });
                      }}
                    >
                      Save notes
                    </Button>
                  </Group>
                </Group>
              </>
            ) : (
              <>
                {query.data.notes ? (
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                    {query.data.notes}
                  </Text>
                ) : (
                  <Text size="sm" c="dimmed">
                    {notesEmptyMessage}
                  </Text>
                )}
                <Text size="xs" c="dimmed">
                  {notesReadOnlyMessage}
                </Text>
              </>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
