import { usageSchema } from '@haversack/contracts';
import { Anchor, Badge, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { API_V1, apiRequest } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import { myTemplatesQuery } from '../../items/api/item-templates-api';

/** The only source of this page's cache key. */
const usageQuery = () =>
  queryOptions({
    queryKey: ['my-content', 'usage'] as const,
    queryFn: async ({ signal }) =>
      (await apiRequest(`${API_V1}/subscription/usage`, { schema: usageSchema, signal, toast: false })).data,
    staleTime: 60_000,
  });

function LimitBadge({ used, limit }: { used: number; limit: number | null }) {
  const full = limit !== null && used >= limit;
  return (
    <Badge variant={full ? 'filled' : 'light'} color={full ? 'red' : undefined} data-testid="content-limit">
      {limit === null ? `${used} (unlimited)` : `${used} of ${limit}`}
    </Badge>
  );
}

function Upcoming({ title }: { title: string }) {
  return (
    <Paper withBorder p="md">
      <Stack gap={4}>
        <Title order={2} size="h4">
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {title} arrive with their features, which are still being built.
        </Text>
      </Stack>
    </Paper>
  );
}

/** /my-content: everything I authored, with counts against my plan's limits. */
export function MyContentPage() {
  usePageTitle('My Content');
  const usage = useQuery(usageQuery());
  const templates = useQuery(myTemplatesQuery({ search: '', page: 1 }));
  const itemUsage = usage.data?.item_templates;
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>My Content</Title>
        <Text c="dimmed">Everything you authored, and how much of your plan it uses.</Text>
      </Stack>
      <Paper withBorder p="md" component="section" aria-labelledby="my-item-templates">
        <Stack gap="sm">
          <Group justify="space-between">
            <Group gap="sm">
              <Title order={2} size="h4" id="my-item-templates">
                Item templates
              </Title>
              {itemUsage ? <LimitBadge used={itemUsage.used} limit={itemUsage.limit} /> : null}
            </Group>
            <Group gap="xs">
              <Button component={Link} to="/items" variant="default" size="xs">
                View all
              </Button>
              <Button component={Link} to="/items/new" size="xs">
                New Item
              </Button>
            </Group>
          </Group>
          {usage.isError ? (
            <Text size="sm" c="dimmed">
              Your plan's limits could not be loaded.
            </Text>
          ) : null}
          {templates.isPending ? (
            <Skeleton height={80} />
          ) : templates.isError ? (
            <ErrorPanel
              title="Error loading items"
              message={templates.error.message}
              onRetry={() => void templates.refetch()}
            />
          ) : templates.data.templates.length === 0 ? (
            <Text size="sm" c="dimmed">
              You have not made any item templates yet.
            </Text>
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="xs">
              {templates.data.templates.map((template) => (
                <Anchor key={template.id} component={Link} to={`/items/templates/${template.id}`}>
                  {template.name}
                </Anchor>
              ))}
            </SimpleGrid>
          )}
        </Stack>
      </Paper>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Upcoming title="Shop templates" />
        <Upcoming title="Loot templates" />
      </SimpleGrid>
    </Stack>
  );
}
