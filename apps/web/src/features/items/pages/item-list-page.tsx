import {
  Anchor,
  Badge,
  Button,
  Group,
  Pagination,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState, noItemsFound } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { myTemplatesQuery } from '../api/item-templates-api';
import { TemplateSummary } from '../components/template-summary';

/** /items: the item templates I made. */
export function ItemListPage() {
  usePageTitle('My Items');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [page, setPage] = useState(1);
  const query = useQuery(myTemplatesQuery({ search: debounced, page }));
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1}>My Items</Title>
          <Text c="dimmed">
            Item templates you made. Add them to containers or share them in the marketplace.
          </Text>
        </Stack>
        <Group gap="sm">
          <Button component={Link} to="/marketplace" variant="default">
            Browse Marketplace
          </Button>
          <Button component={Link} to="/items/new" leftSection={<IconPlus size={16} aria-hidden="true" />}>
            New Item
          </Button>
        </Group>
      </Group>
      <TextInput
        label="Search my items"
        placeholder="Search items..."
        // The server answers searches of at most 200 characters; more would only show an error.
        maxLength={200}
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(1);
        }}
        maw={420}
      />
      <RefreshFailedNote query={query} />
      {query.isPending ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} aria-hidden="true">
          {Array.from({ length: 6 }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder list
            <Skeleton key={index} height={110} />
          ))}
        </SimpleGrid>
      ) : failedWithNothingToShow(query) ? (
        <ErrorPanel
          title="Error loading items"
          message={query.error.message}
          onRetry={() => void query.refetch()}
        />
      ) : query.data.templates.length === 0 ? (
        <EmptyState
          title={debounced ? noItemsFound : 'No items yet'}
          message={
            debounced
              ? 'No template of yours matches that search.'
              : 'Create your first item template, or clone one from the marketplace.'
          }
          action={
            <Button component={Link} to="/items/new">
              Create Item
            </Button>
          }
        />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="my-templates">
            {query.data.templates.map((template) => (
              <Paper key={template.id} withBorder p="md">
                <Stack gap={6}>
                  {/* A long name wraps in its own column; the badge keeps its width rather than shrinking to "P…". */}
                  <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                    <Anchor
                      component={Link}
                      to={`/items/templates/${template.id}`}
                      fw={600}
                      style={{ overflowWrap: 'anywhere', minWidth: 0 }}
                    >
                      {template.name}
                    </Anchor>
                    <Badge variant="light" style={{ flexShrink: 0, overflow: 'visible' }}>
                      {template.visibility}
                    </Badge>
                  </Group>
                  <TemplateSummary template={template} />
                </Stack>
              </Paper>
            ))}
          </SimpleGrid>
          {query.data.meta.total_pages > 1 ? (
            <Pagination
              value={page}
              onChange={setPage}
              total={query.data.meta.total_pages}
              style={{ alignSelf: 'center' }}
            />
          ) : null}
        </>
      )}
    </Stack>
  );
}
