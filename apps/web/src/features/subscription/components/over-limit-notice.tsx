import { type CurrentSubscription, liveUsageResources, type UsageResource } from '@haversack/contracts';
import { Alert, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { formatCount } from '../../../lib/format';
import { countOf, partyStashLockedText } from '../plan-text';

/**
 * The resources that are things a person keeps (characters, parties, templates, deployed shops and loot),
 * not a monthly allowance that starts again on the 1st.
 */
export const keptResources: ReadonlySet<UsageResource> = new Set<UsageResource>([
  'characters',
  'parties_created',
  'parties_joined',
  'item_templates',
  'shop_templates',
  'loot_templates',
  'shop_instances',
  'loot_instances',
]);

export interface OverLimit {
  resource: UsageResource;
  used: number;
  limit: number;
}

/** "10 characters: your plan allows 1." (or "the Free plan", ahead of a move). */
export function overLimitLine({ resource, used, limit }: OverLimit, plan: string): string {
  return `${countOf(resource, used)}: ${plan} ${limit === 0 ? 'includes none' : `allows ${formatCount(limit)}`}.`;
}

/** The kept resources the user has more of than their own plan allows: what a downgrade leaves behind. */
export function overLimits({ usage }: CurrentSubscription): OverLimit[] {
  return liveUsageResources.flatMap((resource) => {
    const entry = usage[resource];
    if (!entry || entry.limit === null || entry.used <= entry.limit || !keptResources.has(resource)) {
      return [];
    }
    return [{ resource, used: entry.used, limit: entry.limit }];
  });
}

interface OverLimitNoticeProps {
  over: OverLimit[];
  /** The user's own plan, named: "Free". */
  planName: string;
  /** What a sponsorship changes for a resource (sponsoredLimitNote), if anything. */
  sponsoredNote: (resource: UsageResource) => string | null;
  /** The plan has no Party collaboration: the stashes of the parties listed are not theirs to change. */
  partyStashLocked?: boolean;
}

/**
 * After a downgrade the server keeps everything: reading, editing and deleting stay open, and only creating
 * (or joining, deploying) more is refused while the count is at or over the limit (`requireLimit` is called
 * on creation only). Said once, plainly, so that "10 / 1" reads as kept, not as lost or broken.
 */
export function OverLimitNotice({
  over,
  planName,
  sponsoredNote,
  partyStashLocked = false,
}: OverLimitNoticeProps) {
  if (over.length === 0) return null;
  const listsParties = over.some(
    ({ resource }) => resource === 'parties_created' || resource === 'parties_joined',
  );
  return (
    <Alert
      color="yellow"
      variant="light"
      title={`More than your ${planName} plan allows`}
      icon={<IconAlertTriangle aria-hidden="true" />}
      // A standing notice (Mantine's Alert is role=alert unless told): not announced urgently on every visit.
      role="status"
      data-testid="over-limit"
    >
      <Stack gap={6}>
        <Stack gap={2} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {over.map(({ resource, used, limit }) => {
            const note = sponsoredNote(resource);
            return (
              <Text key={resource} component="li" size="sm">
                {overLimitLine({ resource, used, limit }, 'your plan')}
                {note ? ` ${note}` : ''}
              </Text>
            );
          })}
        </Stack>
        <Text size="sm">
          {`Nothing is removed: you can still open, change and delete them${over.some(({ resource }) => resource === 'parties_joined') ? ' (or leave a party)' : ''}. You can add more once you are under your plan’s limit, or by upgrading.`}
        </Text>
        {listsParties && partyStashLocked ? (
          <Text size="sm" data-testid="over-limit-party-stash">
            {partyStashLockedText(planName)}
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}
