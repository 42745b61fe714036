import {
  Anchor,
  Badge,
  Button,
  Group,
  Image,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DetailLoadError } from '../../../components/detail-load-error';
import { TextSkeleton } from '../../../components/loading';
import { formatCount } from '../../../lib/format';
import { isRecordNotFound, toastUnexplainedFailure } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import { generalMessages, toast } from '../../../lib/toast';
import { formatWeight } from '../../../lib/weight';
import { TransactionHistory } from '../../activity/components/transaction-history';
import { RealtimeIndicator } from '../../realtime/components/realtime-indicator';
import { usePartyChannels } from '../../realtime/hooks/use-party-channels';
import { ShareButton } from '../../shares/components/share-button';
import { characterKeys, characterQuery, deleteCharacter } from '../api/characters-api';
import { CharacterWealthPanel } from '../components/character-wealth';

/** A figure in a card; a name (the party's) may take two lines, then ends in an ellipsis with its whole self in a title. */
function Stat({ label, value, lineClamp }: { label: string; value: string; lineClamp?: number }) {
  return (
    <Paper withBorder p="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text
        fw={700}
        fz="lg"
        lineClamp={lineClamp}
        title={lineClamp ? value : undefined}
        style={{ overflowWrap: 'anywhere' }}
      >
        {value}
      </Text>
    </Paper>
  );
}

const unlimited = (value: number | null, shown: (value: number) => string) =>
  value === null || value === 0 ? 'Unlimited' : shown(value);

/** /characters/{id}: stats, party, inventory link, live for every reader; edit and delete for the owner. */
export function CharacterDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useQuery(characterQuery(id));
  const [confirming, setConfirming] = useState(false);
  usePageTitle(query.data?.name ?? 'Character');
  // Issue 6: whoever may read a party's character sees its purse, load and history change live. The
  // character read policy (its player or a member of its party; the player is always one) is the party
  // channels' own: membership. Its changes are announced there, naming the character, so the GM and the
  // other members follow it without a channel of its own. Removed from the party, the owner keeps the
  // character (it leaves with them): the page stays; anyone else may no longer read it and goes back to
  // /parties, as from the party's other screens.
  const liveParty = query.data?.party_id ?? null;
  const realtime = usePartyChannels(liveParty, { staysOnRemoval: query.data?.is_owner ?? false });
  const remove = useMutation({
    mutationFn: () => deleteCharacter(id),
    onSuccess: async () => {
      toast.success('Character deleted successfully');
      queryClient.removeQueries({ queryKey: characterKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: characterKeys.all });
      navigate('/characters');
    },
    onError: (error) => toastUnexplainedFailure(error, generalMessages.deleteFailed),
  });

  if (query.isPending) {
    return (
      <Stack gap="lg" aria-busy="true">
        <Title order={1}>
          <VisuallyHidden>Loading character</VisuallyHidden>
        </Title>
        <Skeleton height={32} width={220} />
        <TextSkeleton lines={4} />
      </Stack>
    );
  }
  if (query.isError && (!query.data || isRecordNotFound(query.error))) {
    return (
      <DetailLoadError
        error={query.error}
        onRetry={() => void query.refetch()}
        subject="Character"
        notFoundText="The character might not exist or you may not have permission to view it."
        back={{ href: '/characters', label: 'Back to Characters' }}
      />
    );
  }

  const character = query.data;
  const summary = [character.race, character.character_class].filter(Boolean).join(' · ');
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" gap="md">
        <Stack gap={6} style={{ minWidth: 0, flex: '1 1 280px' }}>
          <Group gap="sm">
            <Title order={1} style={{ overflowWrap: 'anywhere' }}>
              {character.name}
            </Title>
            <Badge variant="light">Level {character.level}</Badge>
          </Group>
          {summary ? <Text c="dimmed">{summary}</Text> : null}
          <Text size="sm">Played by {character.player_name ?? 'Unknown'}</Text>
          {liveParty ? (
            // As the party page says it: its purse, load and history stop changing while the server is away.
            // The badge's height is kept while the first connection is made, so the page does not jump.
            <Group mih={20}>
              <RealtimeIndicator status={realtime.status} />
            </Group>
          ) : null}
        </Stack>
        <Group gap="sm">
          {character.is_owner ? (
            <ShareButton
              kind="character"
              targetId={character.id}
              targetName={`${character.name}'s inventory`}
            />
          ) : null}
          {character.primary_container_id ? (
            <Button component={Link} to={`/containers/${character.primary_container_id}`}>
              View Inventory
            </Button>
          ) : null}
          {character.is_owner ? (
            <>
              <Button component={Link} to={`/characters/${character.id}/edit`} variant="default">
                Edit
              </Button>
              <Button variant="light" color="red" onClick={() => setConfirming(true)}>
                Delete
              </Button>
            </>
          ) : null}
        </Group>
      </Group>

      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
        <Stat label="Level" value={String(character.level)} />
        <Stat label="Max weight" value={unlimited(character.max_weight, formatWeight)} />
        <Stat label="Max slots" value={unlimited(character.max_slots, formatCount)} />
        {/* The party's whole name is in the Party card below, as a link. */}
        <Stat label="Party" value={character.party_name ?? 'None'} lineClamp={2} />
      </SimpleGrid>

      <CharacterWealthPanel characterId={character.id} />

      <SimpleGrid cols={{ base: 1, md: character.image_url ? 2 : 1 }} spacing="md">
        <Paper withBorder p="md" component="section" aria-labelledby="party-heading">
          <Stack gap="xs">
            <Title order={2} size="h4" id="party-heading">
              Party
            </Title>
            {character.party_id ? (
              <Anchor component={Link} to={`/parties/${character.party_id}`}>
                {character.party_name ?? 'Open the party'}
              </Anchor>
            ) : (
              <Text size="sm" c="dimmed">
                Not in a party. Join one, then bring this character in from the party's Characters tab.
              </Text>
            )}
            <Title order={2} size="h4" mt="sm">
              Notes
            </Title>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} c={character.notes ? undefined : 'dimmed'}>
              {character.notes || 'No notes yet.'}
            </Text>
          </Stack>
        </Paper>
        {character.image_url ? <Portrait url={character.image_url} name={character.name} /> : null}
      </SimpleGrid>

      <Paper withBorder p="md">
        <TransactionHistory scope={{ kind: 'character', id: character.id }} title="History" />
      </Paper>

      <ConfirmDialog
        opened={confirming}
        title="Delete character"
        message={`Delete ${character.name}? Its inventory and every item in it are deleted too. This cannot be undone.`}
        confirmLabel="Delete Character"
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => remove.mutate()}
      />
    </Stack>
  );
}

/**
 * The portrait, from the address its player gave; one that cannot be loaded (moved, private, not an
 * image) says so and where it was looked for, instead of a broken image.
 */
function Portrait({ url, name }: { url: string; name: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (failed === url)
    return (
      <Text size="sm" c="dimmed" data-testid="portrait-failed">
        The portrait could not be loaded from {hostOf(url)}.
      </Text>
    );
  return (
    <Image
      src={url}
      alt={`Portrait of ${name}`}
      radius="md"
      mah={360}
      fit="contain"
      referrerPolicy="no-referrer"
      onError={() => setFailed(url)}
    />
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
