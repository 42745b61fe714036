import type { CharacterForm as CharacterFormValues } from '@haversack/contracts';
import { Alert, Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { changedFields } from '../../../lib/forms';
import { isRecordNotFound } from '../../../lib/http-client';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { characterKeys, characterQuery, updateCharacter } from '../api/characters-api';
import { CharacterForm } from '../components/character-form';

export function CharacterEditPage() {
  usePageTitle('Edit Character');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useQuery(characterQuery(id));
  // A character deleted meanwhile (404 on a refresh) ends the form as a first load that failed does; any
  // other failed refresh keeps the form and what was typed, with a note.
  const gone = query.isError && isRecordNotFound(query.error);

  return (
    <Stack gap="lg" maw={760}>
      <Stack gap={4}>
        <Title order={1}>Edit Character</Title>
        {query.data && !gone ? <Text c="dimmed">{query.data.name}</Text> : null}
      </Stack>
      {gone ? null : <RefreshFailedNote query={query} />}
      {query.isPending ? (
        <Paper withBorder p="lg">
          <TextSkeleton lines={6} />
        </Paper>
      ) : failedWithNothingToShow(query) || gone ? (
        <ErrorPanel
          title="Failed to load character"
          message={query.error?.message ?? ''}
          onRetry={() => void query.refetch()}
        />
      ) : !query.data.is_owner ? (
        <Alert role="note" color="yellow" variant="light" title="Only its player can edit this character">
          <Anchor component={Link} to={`/characters/${id}`}>
            Back to the character
          </Anchor>
        </Alert>
      ) : (
        <Paper withBorder p="lg">
          {(() => {
            const c = query.data;
            const initial: CharacterFormValues = {
              name: c.name,
              race: c.race,
              character_class: c.character_class,
              level: c.level,
              notes: c.notes,
              image_url: c.image_url,
              max_weight: c.max_weight,
              max_slots: c.max_slots,
              party_id: c.party_id,
            };
            return (
              <CharacterForm
                initialValues={initial}
                submitLabel="Save Changes"
                onCancel={() => navigate(`/characters/${id}`)}
                onSubmit={async (values) => {
                  const updated = await updateCharacter(id, changedFields(initial, values));
                  queryClient.setQueryData(characterKeys.detail(id), updated);
                  await queryClient.invalidateQueries({ queryKey: characterKeys.lists() });
                  toast.success('Character updated successfully');
                  navigate(`/characters/${id}`);
                }}
              />
            );
          })()}
        </Paper>
      )}
    </Stack>
  );
}
