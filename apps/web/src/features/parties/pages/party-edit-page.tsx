import type { Party, PartyForm as PartyFormValues } from '@haversack/contracts';
import { Alert, Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { changedFields } from '../../../lib/forms';
import { isRecordNotFound } from '../../../lib/http-client';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { partyKeys, partyQuery, updateParty } from '../api/parties-api';
import { PartyForm } from '../components/party-form';

function formValuesOf(party: Party): PartyFormValues {
  return {
    name: party.name,
    description: party.description,
    game_system: party.game_system,
    setting: party.setting,
    join_permission: party.join_permission,
    encumbrance_style: party.encumbrance_style,
    item_conjuring: party.item_conjuring,
    is_public: party.is_public,
  };
}

/** spec/02 §2 Party edit: the form with current values, then back to the party. */
export function PartyEditPage() {
  usePageTitle('Edit Party');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useQuery(partyQuery(id));
  // The values the form opened with, kept as they were: a refetch meanwhile must not move the baseline.
  const [initial, setInitial] = useState<PartyFormValues | null>(null);
  if (query.data && initial === null) setInitial(formValuesOf(query.data));
  // A party deleted meanwhile (404 on a refresh) ends the form as a first load that failed does; any other
  // failed refresh keeps the form and what was typed, with a note.
  const gone = query.isError && isRecordNotFound(query.error);

  return (
    <Stack gap="lg" maw={720}>
      <Stack gap={4}>
        <Title order={1}>Edit Party</Title>
        {query.data && !gone ? <Text c="dimmed">{query.data.name}</Text> : null}
      </Stack>
      {gone ? null : <RefreshFailedNote query={query} />}
      {query.isPending ? (
        <Paper withBorder p="lg">
          <TextSkeleton lines={6} />
        </Paper>
      ) : failedWithNothingToShow(query) || gone ? (
        <ErrorPanel
          title="Error loading party"
          message="An unexpected error occurred."
          onRetry={() => void query.refetch()}
        />
      ) : !query.data.is_gm ? (
        <Alert role="note" color="yellow" variant="light" title="Only the Game Master can edit this party">
          <Anchor component={Link} to={`/parties/${id}`}>
            Back to the party
          </Anchor>
        </Alert>
      ) : query.data.is_archived ? (
        // The server refuses every change to an archived party: say so here, not after a whole edit.
        <Alert role="note" color="yellow" variant="light" title="This party is archived">
          <Stack gap={4}>
            <Text size="sm">Unarchive it to make changes.</Text>
            <Anchor component={Link} to={`/parties/${id}`}>
              Back to the party
            </Anchor>
          </Stack>
        </Alert>
      ) : (
        <Paper withBorder p="lg">
          <PartyForm
            initialValues={initial ?? formValuesOf(query.data)}
            submitLabel="Save Changes"
            onCancel={() => navigate(`/parties/${id}`)}
            onSubmit={async (values) => {
              // Only what this form changed: another tab's edit of the other fields stays.
              const party = await updateParty(id, initial ? changedFields(initial, values) : values);
              queryClient.setQueryData(partyKeys.detail(id), party);
              await queryClient.invalidateQueries({ queryKey: partyKeys.lists() });
              toast.success('Party updated successfully');
              navigate(`/parties/${id}`);
            }}
          />
        </Paper>
      )}
    </Stack>
  );
}
