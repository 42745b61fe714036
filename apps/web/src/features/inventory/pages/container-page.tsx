import type { Container } from '@haversack/contracts';
import { usePrefetchInfiniteQuery, useQuery } from '@tanstack/react-query';
import { memo, useDeferredValue } from 'react';
import { useParams } from 'react-router';
import { DetailLoadError } from '../../../components/detail-load-error';
import { isRecordNotFound } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import { useNavSection } from '../../../lib/use-nav-section';
import { characterQuery, myCharactersQuery, partyCharactersQuery } from '../../characters/api/characters-api';
import { CharacterWealthStrip } from '../../characters/components/character-wealth';
import { partyQuery } from '../../parties/api/parties-api';
import { usePartyChannels } from '../../realtime/hooks/use-party-channels';
import {
  type ContainerOwner,
  containerItemsQuery,
  containerQuery,
  noItemFilters,
} from '../api/inventory-api';
import { InventoryWorkspace } from '../components/inventory-workspace';
import { WorkspaceSkeleton } from '../components/workspace-skeleton';
import { useOwnerContainers } from '../hooks/use-owner-containers';
import { secondPanel } from '../workspace-types';

/**
 * The sources a container's workspace offers: its owner's containers, the party stash of the character's
 * party (or, for a party container, my characters in that party) and my other characters' containers. The
 * party's GM may act on every container of the party (DESIGN §4 Who may act): every character of the party
 * is offered to them too, so that a GM without a character hands the players their starting items from
 * the stash. `settled` is false until the queries that decide the owners have answered (or failed), so the
 * workspace is drawn once, with every destination, rather than redrawn as they arrive.
 */
function useWorkspaceOwners(container: Container | undefined): {
  owners: ContainerOwner[];
  settled: boolean;
  inParty: boolean;
  partyId: string | null;
  ownedByMe: boolean;
} {
  const isCharacter = container?.owner.type === 'character';
  const character = useQuery({ ...characterQuery(container?.owner.id ?? ''), enabled: isCharacter });
  const mine = useQuery({ ...myCharactersQuery(), enabled: container !== undefined });
  const partyId = !container ? null : isCharacter ? (character.data?.party_id ?? null) : container.owner.id;
  const party = useQuery({ ...partyQuery(partyId ?? ''), enabled: partyId !== null });
  const isGm = party.data?.is_gm === true;
  const partyCharacters = useQuery({
    ...partyCharactersQuery(partyId ?? ''),
    enabled: partyId !== null && isGm,
  });
  if (!container) return { owners: [], settled: false, inParty: false, partyId: null, ownedByMe: false };
  const settled =
    !(isCharacter && character.isPending) &&
    !mine.isPending &&
    !(partyId !== null && party.isPending) &&
    !(isGm && partyCharacters.isPending);
  const owners: ContainerOwner[] = [{ type: container.owner.type, id: container.owner.id }];
  if (isCharacter && partyId) owners.push({ type: 'party', id: partyId });
  const characters = new Set<string>([container.owner.id]);
  for (const other of mine.data?.characters ?? []) {
    // In a party's workspace only my characters of that party are useful sources.
    if (!isCharacter && other.party_id !== partyId) continue;
    if (characters.has(other.id)) continue;
    characters.add(other.id);
    owners.push({ type: 'character', id: other.id });
  }
  // Then, for the GM, the party's other characters: the players' containers, each labelled by its owner.
  for (const other of isGm ? (partyCharacters.data?.characters ?? []) : []) {
    if (characters.has(other.id)) continue;
    characters.add(other.id);
    owners.push({ type: 'character', id: other.id });
  }
  // My own character's container is still mine once I am no longer in its party.
  const ownedByMe = isCharacter && (mine.data?.characters ?? []).some((c) => c.id === container.owner.id);
  return { owners, settled, inParty: partyId !== null, partyId, ownedByMe };
}

/** /containers/{id}: the inventory workspace opened on one container (spec/02 §2). */
export function ContainerPage() {
  const { id = '' } = useParams();
  const container = useQuery(containerQuery(id));
  // Its first page of items is asked for with the container, not after the workspace mounts: one round trip
  // less before the first tiles (issue 13 §1).
  usePrefetchInfiniteQuery(containerItemsQuery(id, noItemFilters));
  const { owners, settled, inParty, partyId, ownedByMe } = useWorkspaceOwners(container.data);
  // Whoever can see a party's container (or a party member's) is a member: follow the party live.
  usePartyChannels(partyId, { staysOnRemoval: ownedByMe });
  // Asked for once every owner is known: one request for them all, not one per step.
  const sources = useOwnerContainers(owners, { enabled: settled });
  const ownerName = container.data?.owner.name ?? '';
  usePageTitle(container.data ? `${ownerName} · Inventory` : 'Inventory');
  // A party's stash is reached from its party and belongs to it: the sidebar marks Parties, not Characters.
  useNavSection(container.data?.owner.type === 'party' ? '/parties' : null);

  const loading =
    container.isPending || (container.isSuccess && !settled) || (owners.length > 0 && sources.isPending);
  // The answers arrive as urgent updates (React Query's store): the skeleton stays for that render, and
  // the workspace is drawn in a deferred one that React splits into short slices, so the page answers
  // input while it is drawn (issue 13 §1, total blocking time).
  const drawing = useDeferredValue(loading, true);
  if (loading || (drawing && !container.isError)) {
    return <WorkspaceSkeleton label="Loading inventory" />;
  }
  // A failed refetch (say the server went away after a transfer) keeps the inventory already on screen; the
  // error replaces it when there is nothing to show, or when the container is gone (deleted meanwhile).
  if (container.isError && (!container.data || isRecordNotFound(container.error))) {
    return (
      <DetailLoadError
        error={container.error}
        onRetry={() => void container.refetch()}
        subject="Container"
        heading="Inventory"
        notFoundText="The container might not exist or you may not have permission to view it."
        back={{ href: '/characters', label: 'Back to Characters' }}
      />
    );
  }

  return (
    <LoadedWorkspace
      current={container.data}
      sources={sources.containers}
      ownerName={ownerName}
      inParty={inParty}
      partyId={partyId}
    />
  );
}

interface LoadedWorkspaceProps {
  current: Container;
  sources: Container[];
  ownerName: string;
  inParty: boolean;
  partyId: string | null;
}

const sameContainers = (a: Container[], b: Container[]) =>
  a.length === b.length && a.every((container, i) => container === b[i]);

/**
 * The workspace of a loaded container. The page draws again whenever one of its queries settles (each a
 * synchronous render, as React Query's store updates are), often with the same answers: the workspace is
 * drawn again only when what it shows changed (the queries keep unchanged answers as the same objects),
 * not for each of those renders (issue 13 §1).
 */
const LoadedWorkspace = memo(
  function LoadedWorkspace({ current, sources, ownerName, inParty, partyId }: LoadedWorkspaceProps) {
    const containers = sources.some((c) => c.id === current.id) ? sources : [current, ...sources];
    const ownerLink =
      current.owner.type === 'character' ? `/characters/${current.owner.id}` : `/parties/${current.owner.id}`;
    return (
      <InventoryWorkspace
        key={current.id}
        owner={ownerName}
        back={{ href: ownerLink, label: `Back to ${ownerName}` }}
        // Issue 12 §4: the character's purse, wealth and load across all its containers, under the title.
        summary={
          current.owner.type === 'character' ? <CharacterWealthStrip characterId={current.owner.id} /> : null
        }
        containers={containers}
        initialLeft={{ tab: 'container', containerId: current.id }}
        initialRight={secondPanel(containers, current.id)}
        inParty={inParty}
        partyId={partyId}
        createOwner={current.can_act ? { type: current.owner.type, id: current.owner.id } : null}
      />
    );
  },
  (before, after) =>
    before.current === after.current &&
    sameContainers(before.sources, after.sources) &&
    before.ownerName === after.ownerName &&
    before.inParty === after.inParty &&
    before.partyId === after.partyId,
);
