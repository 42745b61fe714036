import { restockBadge } from '@haversack/contracts';
import { Anchor, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { absoluteTime } from '../../activity/lib/relative-time';
import { restockStatusQuery } from '../api/shops-api';

function restockText(days: number | null): string {
  const label = restockBadge(days).label;
  return label === 'Never' ? 'Never restocks' : `Restocks ${label.toLowerCase()}`;
}

/**
 * spec/02 §7 restock_status on the template page: the shops deployed from this template in my parties,
 * each with its restock rhythm and next restock, so a GM sees where the template is in use.
 */
export function TemplateDeployments({ templateId }: { templateId: string }) {
  const status = useQuery(restockStatusQuery(templateId));
  if (status.isPending) return <Skeleton height={72} />;
  // Secondary information: when it cannot be loaded the page stays useful without it. A refresh that failed
  // keeps what was loaded, with a note.
  if (failedWithNothingToShow(status)) return null;
  const { instances } = status.data;
  return (
    <Paper withBorder p="md" data-testid="template-deployments">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Deployed in your parties
        </Title>
        <RefreshFailedNote query={status} />
        {instances.length === 0 ? (
          <Text size="sm" c="dimmed">
            Not deployed in any of your parties yet.
          </Text>
        ) : (
          instances.map((shop) => (
            <Stack key={shop.id} gap={0}>
              <Anchor component={Link} to={`/shops/instances/${shop.id}`} fw={600}>
                {shop.name}
              </Anchor>
              <Text size="sm" c="dimmed">
                {restockText(shop.restock_days)}
                {shop.next_restock_at ? ` · next on ${absoluteTime(shop.next_restock_at)}` : ''}
              </Text>
            </Stack>
          ))
        )}
      </Stack>
    </Paper>
  );
}
