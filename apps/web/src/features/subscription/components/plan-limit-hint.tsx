import { type UsageResource, usageResourceLabels } from '@haversack/contracts';
import { Anchor, Group, Text, useComputedColorScheme } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { upgradeLinkLabel } from '../../../lib/upgrade-link';
import { currentSubscriptionQueryOptions } from '../api/subscription-api';
import { countOf } from '../plan-text';

/**
 * Issue 12: a plan's limit before the form, not only after a refused submit: "1 of 1 character used",
 * with the way to upgrade once the limit is reached. Says nothing for an unlimited plan or while loading.
 */
export function PlanLimitHint({ resource, id }: { resource: UsageResource; id?: string }) {
  const current = useQuery(currentSubscriptionQueryOptions());
  // Readable on a dark modal as on a light page: the shades differ by theme.
  const dark = useComputedColorScheme('light') === 'dark';
  const entry = current.data?.usage[resource];
  if (!entry || entry.limit === null) return null;
  const { used, limit } = entry;
  const full = used >= limit;
  return (
    <Group gap="xs" id={id} data-testid="plan-limit-hint" data-full={full}>
      <Text size="sm" c={full ? (dark ? 'red.3' : 'red.8') : 'dimmed'} fw={full ? 600 : undefined}>
        {hintText(resource, used, limit)}
      </Text>
      {full ? (
        <Anchor
          component={Link}
          to={`/subscription/upgrade?${new URLSearchParams({ resource })}`}
          size="sm"
          c={dark ? 'violet.3' : 'violet.8'}
        >
          {upgradeLinkLabel}
        </Anchor>
      ) : null}
    </Group>
  );
}

/**
 * "1 of 1 character used" at the limit; over it (after a downgrade, which keeps everything) "10 of 1 used"
 * would read as a miscount, so the hint says what is kept and what the plan allows, as /subscription does.
 */
function hintText(resource: UsageResource, used: number, limit: number): string {
  const noun = usageResourceLabels[resource];
  // "0 of 0 used" says nothing: the plan simply does not have them.
  if (limit === 0) {
    const kept = used > 0 ? ` You keep the ${countOf(resource, used)} you have.` : '';
    return `Your plan does not include ${noun.many}.${kept}`;
  }
  if (used > limit) {
    return `You have ${countOf(resource, used)}; your plan allows ${limit}, so it has no room for another.`;
  }
  return `${used} of ${limit} ${limit === 1 ? noun.one : noun.many} used${used === limit ? ': your plan has no room for another.' : ''}`;
}
