import { type Party, roleLabels } from '@haversack/contracts';
import { Button, Code, Group, Paper, SimpleGrid, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { listReset } from '../../../lib/list-reset';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { partyMembersQuery } from '../api/parties-api';
import { InvitationBox } from './invitation-box';
import { PartyAdminActions } from './party-admin-actions';
import { PartyNotesCard } from './party-notes-card';
import { PartyWealthSection } from './party-wealth-table';
import { PatronagePanel } from './patronage-panel';
import { SponsoredHerePanel } from './sponsored-here-panel';

const encumbranceLabels: Record<Party['encumbrance_style'], string> = {
  weight: 'Weight',
  slots: 'Slots',
  both: 'Weight and slots',
  none: 'None',
};
const joinAccessLabels: Record<Party['join_permission'], string> = {
  full: 'Full',
  limited: 'Limited',
  restricted: 'Invitation only',
};

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <Paper withBorder p="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fw={700} fz="xl">
        {value}
      </Text>
    </Paper>
  );
}

/** spec/02 §2 Overview tab. */
export function PartyOverviewTab({
  party,
  onShare,
  onShowCharacters,
}: {
  party: Party;
  onShare: () => void;
  onShowCharacters: () => void;
}) {
  const members = useQuery(partyMembersQuery(party.id));
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
        <Stat label="Members" value={party.member_count} />
        <Stat label="Players" value={party.player_count} />
        <Stat label="Encumbrance" value={encumbranceLabels[party.encumbrance_style]} />
        <Stat label="Join access" value={joinAccessLabels[party.join_permission]} />
      </SimpleGrid>

      <PartyWealthSection partyId={party.id} isGm={party.is_gm} />

      {/* Two columns of about equal height at 768 px and up (the invitation form, the tallest panel, with
          the ways into the party; patronage with the settings); on a phone one column, in this order. */}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Stack gap="md" data-testid="overview-column-first">
          <Paper withBorder p="md" component="section" aria-labelledby="quick-actions-heading">
            <Stack gap="sm">
              <Title order={2} size="h4" id="quick-actions-heading">
                Quick actions
              </Title>
              <Group gap="sm">
                {/* An archived party is read-only: no new character joins it. */}
                {party.is_archived ? null : (
                  <Button component={Link} to={`/characters/new?party_id=${party.id}`} size="sm">
                    Create a Character
                  </Button>
                )}
                <Button variant="default" size="sm" onClick={onShowCharacters}>
                  View Characters
                </Button>
              </Group>
            </Stack>
          </Paper>

          {party.join_code && party.join_permission !== 'restricted' && !party.is_archived ? (
            <Paper withBorder p="md" component="section" aria-labelledby="join-code-heading">
              <Stack gap="sm">
                <Title order={2} size="h4" id="join-code-heading">
                  Invite with the join code
                </Title>
                <Group gap="sm">
                  <Code fz="lg" data-testid="overview-join-code">
                    {party.join_code}
                  </Code>
                  <Button variant="light" size="sm" onClick={onShare}>
                    Share Join Code
                  </Button>
                </Group>
              </Stack>
            </Paper>
          ) : null}

          {/* Beside the join code: the other way in. */}
          {party.is_gm && !party.is_archived ? <InvitationBox partyId={party.id} /> : null}

          <Paper withBorder p="md" component="section" aria-labelledby="members-heading">
            <Stack gap="xs">
              <Title order={2} size="h4" id="members-heading">
                Members
              </Title>
              {members.isPending ? (
                <div>
                  <VisuallyHidden role="status">Loading members</VisuallyHidden>
                  <TextSkeleton lines={3} />
                </div>
              ) : failedWithNothingToShow(members) ? (
                <Stack gap="xs" align="flex-start">
                  <Text size="sm" c="red">
                    Members could not be loaded.
                  </Text>
                  <Button size="xs" variant="light" color="red" onClick={() => void members.refetch()}>
                    Try Again
                  </Button>
                </Stack>
              ) : (
                // A list named by the heading above it, as on the Members tab: a screen reader says how many
                // and steps from one member to the next.
                <Stack gap="xs" component="ul" aria-labelledby="members-heading" style={listReset}>
                  {members.data.map((member) => (
                    <Group key={member.id} justify="space-between" wrap="nowrap" component="li">
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {member.user.username}
                      </Text>
                      <Text size="sm" c="dimmed">
                        {roleLabels[member.role]}
                      </Text>
                    </Group>
                  ))}
                </Stack>
              )}
              <RefreshFailedNote query={members} />
            </Stack>
          </Paper>
        </Stack>

        <Stack gap="md" data-testid="overview-column-second">
          {party.is_member ? <PartyNotesCard partyId={party.id} /> : null}
          <Paper withBorder p="md" component="section" aria-labelledby="settings-heading">
            <Stack gap="xs">
              <Title order={2} size="h4" id="settings-heading">
                Party settings
              </Title>
              <Setting label="Game system" value={party.game_system || 'Not set'} />
              <Setting label="Setting" value={party.setting || 'Not set'} />
              <Setting
                label="Visibility"
                value={party.is_public ? 'Public (listed in Discover)' : 'Private'}
              />
              <Setting label="Game Master" value={party.gm_name ?? 'Unknown'} />
            </Stack>
          </Paper>
          {party.is_member ? <SponsoredHerePanel partyId={party.id} /> : null}
          {party.is_member ? (
            <PatronagePanel
              partyId={party.id}
              partyName={party.name}
              isGm={party.is_gm}
              archived={party.is_archived}
            />
          ) : null}
          {party.is_gm ? <PartyAdminActions party={party} /> : null}
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}

/** The label keeps its width and the value wraps: a 200-letter setting squeezed "Setting" to a letter a line. */
function Setting({ label, value }: { label: string; value: string }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="md">
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" ta="right" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
        {value}
      </Text>
    </Group>
  );
}
