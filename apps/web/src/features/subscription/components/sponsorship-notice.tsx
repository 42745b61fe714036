import type { Patronage, Tier, TierIdentifier } from '@haversack/contracts';
import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { IconHeartHandshake } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ownPlanOnlyNote } from '../sponsorship';

interface SponsorshipNoticeProps {
  /** The patronages that lift the user's plan (see liftingPatronages). */
  patronages: Patronage[];
  /** The user's own plan. */
  ownTier: Pick<Tier, 'name' | 'features'>;
  tierName: (identifier: TierIdentifier) => string;
}

/**
 * A sponsored player is not only on their own plan: who sponsors them, with which plan and in which party,
 * and that inside that party the sponsor's plan's limits and features apply (DESIGN §5), but for the features
 * that always follow the user's own plan (ownPlanOnlyNote).
 */
export function SponsorshipNotice({ patronages, ownTier, tierName }: SponsorshipNoticeProps) {
  if (patronages.length === 0) return null;
  const exception = ownPlanOnlyNote(ownTier);
  const [only] = patronages;
  const where =
    only && patronages.length === 1
      ? `Inside that party your limits and features are ${tierName(only.granted_tier)}’s`
      : 'Inside each of those parties your limits and features are its sponsored plan’s';
  return (
    <Alert
      color="blue"
      variant="light"
      title={
        patronages.length === 1 ? 'You are sponsored' : `You are sponsored in ${patronages.length} parties`
      }
      icon={<IconHeartHandshake aria-hidden="true" />}
      // A standing notice (Mantine's Alert is role=alert unless told): not announced urgently on every visit.
      role="status"
      data-testid="plan-sponsorships"
    >
      <Stack gap={6}>
        <Stack gap={2} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {patronages.map((patronage) => (
            <Text key={patronage.id} component="li" size="sm">
              {`${patronage.patron_name ?? 'A member'} sponsors you with ${tierName(patronage.granted_tier)} in `}
              <Anchor
                component={Link}
                to={`/parties/${patronage.party_id}`}
                size="sm"
                c="inherit"
                underline="always"
              >
                {patronage.party_name ?? 'a party'}
              </Anchor>
              .
            </Text>
          ))}
        </Stack>
        <Text size="sm">{`${where}; elsewhere your own ${ownTier.name} plan’s apply.`}</Text>
        {exception ? (
          <Text size="sm" data-testid="plan-sponsorships-own-plan">
            {exception}
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}
