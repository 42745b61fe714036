import {
  type AdminUserSummary,
  adminUserQuerySchema,
  tierIdentifiers,
  tierNameOf,
  tierNames,
} from '@haversack/contracts';
import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Pagination,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { PastLastPage } from '../../../components/past-last-page';
import { formatCount } from '../../../lib/format';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { type AdminUserSearch, adminUsersQueryOptions } from '../api/admin-users-api';
import { adminDateTime } from '../lib/format';

const tierOptions = tierIdentifiers.map((value) => ({ value, label: tierNames[value] }));

function searchFrom(params: URLSearchParams): AdminUserSearch {
  const search: AdminUserSearch = {};
  const text = params.get('search');
  if (text) search.search = text;
  const tier = params.get('tier');
  if (tier === 'tier_free' || tier === 'tier_1' || tier === 'tier_2' || tier === 'tier_3') search.tier = tier;
  const status = params.get('status');
  if (status === 'active' || status === 'suspended') search.status = status;
  const admin = params.get('admin');
  if (admin === 'true' || admin === 'false') search.admin = admin;
  const page = Number(params.get('page'));
  if (Number.isInteger(page) && page > 1) search.page = page;
  return search;
}

export function UserStatusBadges({ user }: { user: AdminUserSummary }) {
  return (
    <Group gap={4} wrap="wrap">
      {user.suspended_at ? (
        <Badge color="red" variant="filled">
          Suspended
        </Badge>
      ) : (
        <Badge color="green" variant="light">
          Active
        </Badge>
      )}
      {user.admin ? (
        <Badge color="grape" variant="light">
          Admin
        </Badge>
      ) : null}
      <Badge color="blue" variant="outline">
        {tierNameOf(user.tier)}
      </Badge>
    </Group>
  );
}

/** Issue 15, Users: search and filter everyone, open a user to help or restrain them. */
export function AdminUsersPage() {
  usePageTitle('Admin Users');
  const [params, setParams] = useSearchParams();
  const search = searchFrom(params);
  const query = useQuery(adminUsersQueryOptions(search));
  const isPhone = useMediaQuery('(max-width: 47.99em)') ?? false;
  const [text, setText] = useState(search.search ?? '');
  useEffect(() => setText(search.search ?? ''), [search.search]);

  const paramsOf = (next: AdminUserSearch) => {
    const out = new URLSearchParams();
    for (const [key, value] of Object.entries(next)) {
      if (value !== undefined && value !== '' && !(key === 'page' && value === 1))
        out.set(key, String(value));
    }
    return out;
  };
  const apply = (next: AdminUserSearch) => setParams(paramsOf(next));
  const firstPageQuery = paramsOf({ ...search, page: 1 }).toString();
  const pager = (totalPages: number) =>
    totalPages > 1 ? (
      <Group justify="center">
        <Pagination
          total={totalPages}
          value={search.page ?? 1}
          onChange={(page) => apply({ ...search, page })}
          aria-label="User pages"
          getControlProps={(control) => ({
            'aria-label': control === 'previous' ? 'Previous page' : 'Next page',
          })}
        />
      </Group>
    ) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply({ ...search, search: text.trim(), page: 1 });
  };

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={1}>Users</Title>
        <Text c="dimmed" size="sm">
          Find an account by email or username; open it to see its parties, plan and sessions, or to act on
          it.
        </Text>
      </Stack>
      <Paper withBorder p="md" component="form" onSubmit={submit} aria-label="Search users">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
          <TextInput
            label="Search"
            placeholder="Email or username"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
          />
          <Select
            label="Plan"
            placeholder="Any plan"
            data={tierOptions}
            value={search.tier ?? null}
            onChange={(value) =>
              apply({
                ...search,
                tier: adminUserQuerySchema.shape.tier.safeParse(value ?? undefined).data,
                page: 1,
              })
            }
            clearable
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label="Status"
            placeholder="Any status"
            data={[
              { value: 'active', label: 'Active' },
              { value: 'suspended', label: 'Suspended' },
            ]}
            value={search.status ?? null}
            onChange={(value) =>
              apply({
                ...search,
                status: adminUserQuerySchema.shape.status.safeParse(value ?? undefined).data,
                page: 1,
              })
            }
            clearable
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label="Admin"
            placeholder="Admins and others"
            data={[
              { value: 'true', label: 'Admins only' },
              { value: 'false', label: 'Non-admins only' },
            ]}
            value={search.admin ?? null}
            onChange={(value) =>
              apply({
                ...search,
                admin: adminUserQuerySchema.shape.admin.safeParse(value ?? undefined).data,
                page: 1,
              })
            }
            clearable
            comboboxProps={{ withinPortal: true }}
          />
        </SimpleGrid>
        <Group mt="md">
          <Button type="submit">Search</Button>
        </Group>
      </Paper>

      {query.isPending ? (
        <Stack gap="xs" aria-busy="true">
          <Text size="sm" c="dimmed" role="status">
            Loading users...
          </Text>
          {[0, 1, 2, 3].map((row) => (
            <Skeleton key={row} height={40} />
          ))}
        </Stack>
      ) : failedWithNothingToShow(query) ? (
        <ErrorPanel
          title="Failed to Load Users"
          message={query.error.message}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : query.data.users.length === 0 && (search.page ?? 1) > 1 ? (
        <PastLastPage
          totalPages={query.data.meta.total_pages}
          firstPage={{ href: `/admin/users${firstPageQuery ? `?${firstPageQuery}` : ''}` }}
          pager={pager(query.data.meta.total_pages)}
        />
      ) : query.data.users.length === 0 ? (
        <EmptyState
          title="No Users Found"
          message="No account matches this search. Try fewer words or filters."
        />
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed" aria-live="polite">
            {formatCount(query.data.meta.total_count)} {query.data.meta.total_count === 1 ? 'user' : 'users'}
          </Text>
          {isPhone ? (
            <Stack gap="xs">
              {query.data.users.map((user) => (
                <Card key={user.id} withBorder padding="sm" data-testid="admin-user-row">
                  <Anchor
                    component={Link}
                    to={`/admin/users/${user.id}`}
                    fw={600}
                    style={{ overflowWrap: 'anywhere' }}
                  >
                    {user.email}
                  </Anchor>
                  <Text size="sm" c="dimmed">
                    {user.username} · joined {adminDateTime(user.created_at)}
                  </Text>
                  <UserStatusBadges user={user} />
                </Card>
              ))}
            </Stack>
          ) : (
            <Table.ScrollContainer minWidth={720}>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>User</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Joined</Table.Th>
                    <Table.Th>Last seen</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {query.data.users.map((user) => (
                    <Table.Tr key={user.id} data-testid="admin-user-row">
                      <Table.Td>
                        <Anchor component={Link} to={`/admin/users/${user.id}`} fw={600}>
                          {user.email}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {user.username}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <UserStatusBadges user={user} />
                      </Table.Td>
                      <Table.Td>{adminDateTime(user.created_at)}</Table.Td>
                      <Table.Td>{user.last_seen_at ? adminDateTime(user.last_seen_at) : 'Never'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {pager(query.data.meta.total_pages)}
        </Stack>
      )}
    </Stack>
  );
}
