import { Alert, Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { TextSkeleton } from '../../../components/loading';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { partyKeys, partyQuery, updateParty } from '../api/parties-api';
import { PartyForm } from '../components/party-form';

/** spec/02 §2 Party edit: the form with current values, then back to the party. */
export function PartyEditPage() {
  usePageTitle('Edit Party');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useQuery(partyQuery(id));

  return (
    <Stack gap="lg" maw={720}>
      <Stack gap={4}>
        <Title order={1}>Edit Party</Title>
        {query.data ? <Text c="dimmed">{query.data.name}</Text> : null}
      </Stack>
      {query.isPending ? (
        <Paper withBorder p="lg">
          <TextSkeleton lines={6} />
        </Paper>
      ) : query.isError && !query.data ? (
        <ErrorPanel
          title="Error loading party"
          message="An unexpected error occurred."
          onRetry={() => void query.refetch()}
        />
      ) : !query.data.is_gm ? (
        <Alert color="yellow" variant="light" title="Only the Game Master can edit this party">
          <Anchor component={Link} to={`/parties/${id}`}>
            Back to the party
          </Anchor>
        </Alert>
      ) : (
        <Paper withBorder p="lg">
          <PartyForm
            initialValues={{
              name: query.data.name,
              description: query.data.description,
              game_system: query.data.game_system,
              setting: query.data.setting,
              join_permission: query.data.join_permission,
              encumbrance_style: query.data.encumbrance_style,
              item_conjuring: query.data.item_conjuring,
              is_public: query.data.is_public,
            }}
            submitLabel="Save Changes"
            onCancel={() => navigate(`/parties/${id}`)}
            onSubmit={async (values) => {
              const party = await updateParty(id, values);
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
