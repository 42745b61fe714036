import { type Party, partyMessages } from '@haversack/contracts';
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Tabs,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { TextSkeleton } from '../../../components/loading';
import { ScrollingTabsList } from '../../../components/scrolling-tabs-list';
import { isRecordNotFound } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import { selectFirstOrLastTab } from '../../../lib/select-first-or-last-tab';
import { useCurrentUser } from '../../../stores/auth-store';
import { ACTIVITY_TAB_PER_PAGE } from '../../activity/api/transactions-api';
import { TransactionHistory } from '../../activity/components/transaction-history';
import { PartyLootTab } from '../../loot/components/party-loot-tab';
import { OnlineUsers } from '../../realtime/components/online-users';
import { RealtimeIndicator } from '../../realtime/components/realtime-indicator';
import { usePartyChannels } from '../../realtime/hooks/use-party-channels';
import { PartyShopsTab } from '../../shops/components/party-shops-tab';
import { partyQuery } from '../api/parties-api';
import { PartyCharactersTab } from '../components/party-characters-tab';
import { PartyFacts } from '../components/party-facts';
import { PartyInventoryTab } from '../components/party-inventory-tab';
import { PartyMembersTab } from '../components/party-members-tab';
import { PartyOverviewTab } from '../components/party-overview-tab';
import { PartyRoleBadge } from '../components/party-role-badge';
import { ShareJoinCodeDialog } from '../components/share-join-code-dialog';
import { WelcomePanel } from '../components/welcome-panel';

const tabs = ['overview', 'members', 'characters', 'inventory', 'shops', 'loot', 'activity'] as const;
type PartyTab = (typeof tabs)[number];
const tabLabels: Record<PartyTab, string> = {
  overview: 'Overview',
  members: 'Members',
  characters: 'Characters',
  inventory: 'Inventory',
  shops: 'Shops',
  loot: 'Loot',
  activity: 'Activity',
};

/** spec/02 §2 Party detail (/parties/{id}). */
export function PartyDetailPage() {
  const { id = '' } = useParams();
  const query = useQuery(partyQuery(id));
  usePageTitle(query.data?.name ?? 'Party');

  if (query.isPending) {
    return (
      <Stack gap="lg" aria-busy="true">
        <Title order={1}>
          <VisuallyHidden>Loading party</VisuallyHidden>
        </Title>
        <Skeleton height={32} width={240} />
        <TextSkeleton lines={4} />
      </Stack>
    );
  }
  if (query.isError && (!query.data || isRecordNotFound(query.error))) {
    // No such party for this user, or `/parties/not-an-id`: "Party Not Found" rather than Try Again.
    return isRecordNotFound(query.error) ? (
      <Stack gap="md" maw={640}>
        <Title order={1}>Party Not Found</Title>
        <Text>The party might not exist or you may not have permission to view it.</Text>
        <Group>
          <Button component={Link} to="/parties">
            Back to Parties
          </Button>
        </Group>
      </Stack>
    ) : (
      <Stack gap="md" maw={640}>
        <Title order={1}>Party</Title>
        <ErrorPanel
          title="Error Loading Party"
          message="Failed to load party details."
          onRetry={() => void query.refetch()}
        />
      </Stack>
    );
  }
  return query.data.is_member ? <MemberView party={query.data} /> : <PublicPreview party={query.data} />;
}

function PartyHeader({ party, actions, live }: { party: Party; actions?: ReactNode; live?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-start" gap="md">
      <Stack gap={6} style={{ minWidth: 0, flex: '1 1 320px' }}>
        <Group gap="sm" align="center">
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>
            {party.name}
          </Title>
          <PartyRoleBadge party={party} />
          {party.is_archived ? (
            <Badge color="gray" variant="outline">
              Archived
            </Badge>
          ) : null}
        </Group>
        {/* Its line breaks kept, as a character's notes keep theirs. */}
        {party.description ? (
          <Text c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
            {party.description}
          </Text>
        ) : null}
        <PartyFacts gameSystem={party.game_system} setting={party.setting} memberCount={party.member_count} />
        {live}
      </Stack>
      {actions}
    </Group>
  );
}

/** A public party seen by someone outside it: the preview fields and the way in. */
function PublicPreview({ party }: { party: Party }) {
  return (
    <Stack gap="lg">
      <PartyHeader party={party} />
      <Paper withBorder p="lg">
        <Stack gap="sm" align="flex-start">
          <Text>You are not a member of this party yet.</Text>
          <Button component={Link} to={`/parties/join?preview=${party.id}`}>
            Join This Party
          </Button>
        </Stack>
      </Paper>
    </Stack>
  );
}

function MemberView({ party }: { party: Party }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const [welcome, setWelcome] = useState(searchParams.get('welcome') === 'true');
  // The tab lives in the address (?tab=loot): a link may open one (after deploying loot), and a reload or
  // Back keeps it. Anything else opens the overview.
  const asked = searchParams.get('tab');
  const tab: PartyTab = (tabs as readonly string[]).includes(asked ?? '') ? (asked as PartyTab) : 'overview';
  const setTab = (next: PartyTab) => {
    if (next === tab) return;
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        if (next === 'overview') params.delete('tab');
        else params.set('tab', next);
        // The inventory's panels (?left, ?right, ?view) belong to its tab, which closes.
        for (const key of ['left', 'right', 'view']) params.delete(key);
        return params;
      },
      { replace: true },
    );
  };
  const [sharing, setSharing] = useState(false);
  // Issue 6: every tab of the party stays live.
  const realtime = usePartyChannels(party.id);
  const me = useCurrentUser();

  // spec/02 §2: the welcome panel shows once; the query is removed so a reload does not bring it back.
  useEffect(() => {
    if (searchParams.has('welcome')) {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('welcome');
          return next;
        },
        { replace: true },
      );
    }
  }, [searchParams, setSearchParams]);

  // Home and End select too, as the arrow keys do.
  const selectFirstOrLast = selectFirstOrLastTab(tabs, setTab);

  // An archived party takes nobody in (its code answers "no party matches"): nothing to share.
  const canShare = !party.is_archived && party.join_code !== null && party.join_permission !== 'restricted';

  return (
    <Stack gap="lg">
      <PartyHeader
        party={party}
        live={
          <Group gap="sm" align="center" mih={26}>
            <RealtimeIndicator status={realtime.status} />
            <OnlineUsers
              users={realtime.onlineUsers}
              myUserId={me?.id ?? null}
              live={realtime.status === 'connected'}
            />
          </Group>
        }
        actions={
          canShare ? (
            <Button variant="light" onClick={() => setSharing(true)}>
              Share Join Code
            </Button>
          ) : null
        }
      />
      {welcome ? (
        <WelcomePanel partyId={party.id} partyName={party.name} onDismiss={() => setWelcome(false)} />
      ) : null}
      {party.is_archived ? (
        <Alert role="note" color="gray" variant="light">
          {/* Only its GM can unarchive it: the others are told who can. */}
          {party.is_gm ? partyMessages.archivedForGm : partyMessages.archived}
        </Alert>
      ) : null}

      <Tabs value={tab} onChange={(value) => value && setTab(value as PartyTab)} keepMounted={false}>
        <ScrollingTabsList selected={tab}>
          {tabs.map((value) => (
            <Tabs.Tab key={value} value={value} onKeyDown={selectFirstOrLast}>
              {tabLabels[value]}
            </Tabs.Tab>
          ))}
        </ScrollingTabsList>
        <Tabs.Panel value="overview" pt="md">
          <PartyOverviewTab
            party={party}
            onShare={() => setSharing(true)}
            onShowCharacters={() => setTab('characters')}
          />
        </Tabs.Panel>
        <Tabs.Panel value="members" pt="md">
          <PartyMembersTab party={party} />
        </Tabs.Panel>
        <Tabs.Panel value="characters" pt="md">
          <PartyCharactersTab party={party} />
        </Tabs.Panel>
        <Tabs.Panel value="inventory" pt="md">
          <PartyInventoryTab party={party} />
        </Tabs.Panel>
        <Tabs.Panel value="shops" pt="md">
          <PartyShopsTab
            partyId={party.id}
            canDeploy={!party.is_archived && (party.user_role === 'gm' || party.user_role === 'manager')}
          />
        </Tabs.Panel>
        <Tabs.Panel value="loot" pt="md">
          <PartyLootTab partyId={party.id} isGm={party.user_role === 'gm'} archived={party.is_archived} />
        </Tabs.Panel>
        <Tabs.Panel value="activity" pt="md">
          {/* spec/02 §2: the party's latest 50 changes, with filters. */}
          <TransactionHistory
            scope={{ kind: 'party', id: party.id }}
            title="Party activity"
            perPage={ACTIVITY_TAB_PER_PAGE}
          />
        </Tabs.Panel>
      </Tabs>

      {canShare && party.join_code ? (
        <ShareJoinCodeDialog
          opened={sharing}
          onClose={() => setSharing(false)}
          partyName={party.name}
          joinCode={party.join_code}
        />
      ) : null}
    </Stack>
  );
}
