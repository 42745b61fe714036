import type { Patronage, TierIdentifier } from '@haversack/contracts';
import { Anchor, Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { useEndPatronage } from '../api/subscription-api';
import { formatDate } from '../plan-text';
import { endReceivedSponsorshipWords } from '../sponsorship';

type PatronageSide = 'granted' | 'received';

interface PatronageListProps {
  side: PatronageSide;
  patronages: Patronage[];
  /** Plan names by identifier, for "grants Hero". */
  tierName: (identifier: TierIdentifier) => string;
}

const sideText: Record<
  PatronageSide,
  { heading: string; empty: string; confirm: (patronage: Patronage, plan: string) => string }
> = {
  granted: {
    heading: 'Patronages you grant',
    empty:
      'You are not sponsoring anyone. A Hero or Legend plan lets you sponsor a member of your party, from the Patronage panel on the party’s Overview.',
    confirm: (patronage, plan) =>
      `${patronage.beneficiary_name ?? 'The member'} loses ${plan} in ${patronage.party_name ?? 'that party'} at once.`,
  },
  received: {
    heading: 'Patronages you receive',
    empty: 'Nobody is sponsoring you at the moment.',
    confirm: endReceivedSponsorshipWords,
  },
};

/** Patronage grants a member a plan's features within one party (spec/01 §6); either side may end it. */
export function PatronageList({ side, patronages, tierName }: PatronageListProps) {
  const [ending, setEnding] = useState<Patronage | null>(null);
  const endPatronage = useEndPatronage();
  const text = sideText[side];
  const headingId = `patronages-${side}-heading`;

  const confirmEnd = () => {
    if (!ending) return;
    endPatronage.mutate(ending.id, { onSettled: () => setEnding(null) });
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId} data-testid={`patronages-${side}`}>
      <Title order={3} size="h5" id={headingId}>
        {text.heading}
      </Title>
      {patronages.length === 0 ? (
        <Text size="sm" c="dimmed">
          {text.empty}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {patronages.map((patronage) => (
            <Card key={patronage.id} component="li" withBorder padding="sm">
              <Group justify="space-between" gap="sm">
                <Stack gap={2}>
                  <Text size="sm" fw={600}>
                    {side === 'granted'
                      ? `${patronage.beneficiary_name ?? 'A member'} — ${tierName(patronage.granted_tier)}`
                      : `${tierName(patronage.granted_tier)} from ${patronage.patron_name ?? 'a member'}`}
                  </Text>
                  <Text size="sm" c="dimmed">
                    In{' '}
                    <Anchor component={Link} to={`/parties/${patronage.party_id}`} size="sm">
                      {patronage.party_name ?? 'a party'}
                    </Anchor>{' '}
                    since {formatDate(patronage.created_at)}
                  </Text>
                </Stack>
                <Button
                  variant="default"
                  size="xs"
                  onClick={() => setEnding(patronage)}
                  aria-label={`End patronage in ${patronage.party_name ?? 'this party'}`}
                >
                  End
                </Button>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      <Modal
        opened={ending !== null}
        onClose={() => setEnding(null)}
        title="End this patronage?"
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack gap="md">
          <Text size="sm">{ending ? text.confirm(ending, tierName(ending.granted_tier)) : ''}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setEnding(null)}>
              Keep it
            </Button>
            <Button color="red.9" onClick={confirmEnd} loading={endPatronage.isPending}>
              End patronage
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
