import { type UsageResource, usageSchema } from '@haversack/contracts';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { API_V1, apiRequest } from '../../../lib/http-client';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { upgradeLinkLabel } from '../../../lib/upgrade-link';
import { myTemplatesQuery } from '../../items/api/item-templates-api';
import { defaultLootTemplateFilters, lootTemplatesQuery } from '../../loot/api/loot-api';
import { myActivePartiesQuery } from '../../parties/api/parties-api';
import { usePartyInventoriesLive } from '../../realtime/hooks/use-party-inventories-live';
import {
  defaultShopInstanceFilters,
  defaultShopTemplateFilters,
  shopInstancesQuery,
  shopKeys,
  shopTemplatesQuery,
} from '../../shops/api/shops-api';
import { subscriptionKeys } from '../../subscription/api/subscription-api';

/** Under the account's key: whatever refreshes the user's plan (a new template, a live deployment) refreshes it. */
const usageQuery = () =>
  queryOptions({
    queryKey: subscriptionKeys.contentUsage(),
    queryFn: async ({ signal }) =>
      (await apiRequest(`${API_V1}/subscription/usage`, { schema: usageSchema, signal, toast: false })).data,
    staleTime: 60_000,
  });

type Count = { used: number; limit: number | null };

/** A plan without the resource at all (limit 0, none used) is not "full": it says so, never "0 of 0". */
const notInPlan = (count: Count) => count.limit === 0 && count.used === 0;

function LimitBadge({ used, limit }: Count) {
  if (notInPlan({ used, limit })) {
    return (
      <Badge variant="light" color="gray" data-testid="content-limit">
        Not included in your plan
      </Badge>
    );
  }
  const full = limit !== null && used >= limit;
  return (
    <Badge variant={full ? 'filled' : 'light'} color={full ? 'red' : undefined} data-testid="content-limit">
      {limit === null ? `${used} (unlimited)` : `${used} of ${limit}`}
    </Badge>
  );
}

interface AuthoredLink {
  id: string;
  name: string;
  to: string;
}

interface ContentSectionProps {
  id: string;
  title: string;
  usage: Count | undefined;
  /** The plan resource behind `usage`: where the upgrade link points when the plan has none of it. */
  resource: UsageResource;
  usageFailed: boolean;
  /** Asks the plan's limits again (they are one query for every section). */
  retryUsage: () => void;
  /** A second count against the plan, said in words (e.g. deployments this month). */
  note?: string;
  viewAllTo: string;
  newLabel: string;
  newTo: string;
  emptyText: string;
  errorTitle: string;
  query: {
    isPending: boolean;
    isError: boolean;
    isFetching: boolean;
    error: Error | null;
    data: unknown;
    refetch: () => unknown;
  };
  links: AuthoredLink[];
}

/** One kind of authored content: its count against the plan, a way to make more, and links to each. */
function ContentSection(props: ContentSectionProps) {
  const { query } = props;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={props.id}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Group gap="sm">
            <Title order={2} size="h4" id={props.id}>
              {props.title}
            </Title>
            {props.usage ? <LimitBadge used={props.usage.used} limit={props.usage.limit} /> : null}
          </Group>
          <Group gap="xs">
            {/* Four sections, four "View all": the hidden rest says which list, in a screen reader's list
                of links, and keeps the button short at 375 px. */}
            <Button component={Link} to={props.viewAllTo} variant="default" size="xs">
              View all<VisuallyHidden> {props.title.toLowerCase()}</VisuallyHidden>
            </Button>
            {props.usage?.limit === 0 ? (
              // The form behind New would only say the plan has no room: offer what does help.
              <Button
                component={Link}
                to={`/subscription/upgrade?${new URLSearchParams({ resource: props.resource })}`}
                size="xs"
                variant="light"
              >
                {upgradeLinkLabel}
              </Button>
            ) : (
              <Button component={Link} to={props.newTo} size="xs">
                {props.newLabel}
              </Button>
            )}
          </Group>
        </Group>
        {props.usageFailed ? (
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              Your plan's limits could not be loaded.
            </Text>
            <Button variant="subtle" size="compact-xs" onClick={props.retryUsage}>
              Try again
            </Button>
          </Group>
        ) : null}
        {props.note ? (
          <Text size="sm" c="dimmed" data-testid="content-note">
            {props.note}
          </Text>
        ) : null}
        <RefreshFailedNote query={query} />
        {query.isPending ? (
          <Skeleton height={80} />
        ) : failedWithNothingToShow(query) ? (
          <ErrorPanel
            title={props.errorTitle}
            message={query.error?.message ?? ''}
            onRetry={() => {
              void query.refetch();
              // What failed with the list most likely failed with the limits: both are asked again.
              if (props.usageFailed) props.retryUsage();
            }}
          />
        ) : props.links.length === 0 ? (
          <Text size="sm" c="dimmed">
            {props.emptyText}
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="xs">
            {props.links.map((link) => (
              <Anchor key={link.id} component={Link} to={link.to}>
                {link.name}
              </Anchor>
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * /my-content: everything I authored, with counts against my plan's limits. Only content this server offers
 * has a section.
 */
export function MyContentPage() {
  usePageTitle('My Content');
  const usage = useQuery(usageQuery());
  const itemTemplates = useQuery(myTemplatesQuery({ search: '', page: 1 }));
  const shopTemplates = useQuery(shopTemplatesQuery({ ...defaultShopTemplateFilters, mine: true }));
  const shopInstances = useQuery(shopInstancesQuery({ ...defaultShopInstanceFilters, perPage: 50 }));
  const lootTemplates = useQuery(lootTemplatesQuery({ ...defaultLootTemplateFilters, mine: true }, 50));
  // Live like Shop Instances: a shop deployed, renamed, stocked or removed in any of my parties (from another
  // tab, by a co-GM) shows here without a reload, and so does its count against the plan (party-events.ts).
  const parties = useQuery(myActivePartiesQuery());
  usePartyInventoriesLive(
    [
      ...(parties.data?.parties ?? []).map((party) => party.id),
      ...(shopInstances.data?.instances ?? []).map((shop) => shop.party_id),
    ],
    [...shopKeys.instances(), 'list'],
  );
  const monthly = usage.data?.shop_deployments_monthly;
  const lootInstances = usage.data?.loot_instances;
  const lootMonthly = usage.data?.loot_deployments_monthly;
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>My Content</Title>
        <Text c="dimmed">Everything you authored, and how much of your plan it uses.</Text>
      </Stack>
      {/* The limits are one query for every section: one note, not four, when their refresh fails. */}
      <RefreshFailedNote query={usage} />
      <ContentSection
        id="my-item-templates"
        title="Item templates"
        usage={usage.data?.item_templates}
        resource="item_templates"
        usageFailed={failedWithNothingToShow(usage)}
        retryUsage={() => void usage.refetch()}
        viewAllTo="/items"
        newLabel="New Item"
        newTo="/items/new"
        emptyText="You have not made any item templates yet."
        errorTitle="Error loading items"
        query={itemTemplates}
        links={(itemTemplates.data?.templates ?? []).map((template) => ({
          id: template.id,
          name: template.name,
          to: `/items/templates/${template.id}`,
        }))}
      />
      <ContentSection
        id="my-shop-templates"
        title="Shop templates"
        usage={usage.data?.shop_templates}
        resource="shop_templates"
        usageFailed={failedWithNothingToShow(usage)}
        retryUsage={() => void usage.refetch()}
        viewAllTo="/shops/templates"
        newLabel="New Shop"
        newTo="/shops/templates/new"
        emptyText="You have not made any shop templates yet."
        errorTitle="Unable to Load Shops"
        query={shopTemplates}
        links={(shopTemplates.data?.templates ?? []).map((template) => ({
          id: template.id,
          name: template.name,
          to: `/shops/templates/${template.id}`,
        }))}
      />
      <ContentSection
        id="my-shop-instances"
        title="Deployed shops"
        usage={usage.data?.shop_instances}
        resource="shop_instances"
        usageFailed={failedWithNothingToShow(usage)}
        retryUsage={() => void usage.refetch()}
        note={deploymentsNote(monthly)}
        viewAllTo="/shops/instances"
        newLabel="Deploy a Shop"
        newTo="/shops"
        emptyText="You run no shop in any party yet."
        errorTitle="Unable to Load Shops"
        query={shopInstances}
        links={(shopInstances.data?.instances ?? [])
          .filter((shop) => shop.can_manage)
          .map((shop) => ({
            id: shop.id,
            name: `${shop.name} (${shop.party.name})`,
            to: `/shops/instances/${shop.id}`,
          }))}
      />
      <ContentSection
        id="my-loot-templates"
        title="Loot templates"
        usage={usage.data?.loot_templates}
        resource="loot_templates"
        usageFailed={failedWithNothingToShow(usage)}
        retryUsage={() => void usage.refetch()}
        note={lootUsageNote(lootInstances, lootMonthly)}
        viewAllTo="/loot/templates?mine=true"
        newLabel="New Loot"
        newTo="/loot/templates/new"
        emptyText="You have not made any loot templates yet."
        errorTitle="Unable to Load Loot"
        query={lootTemplates}
        links={(lootTemplates.data?.templates ?? []).map((template) => ({
          id: template.id,
          name: template.name,
          to: `/loot/templates/${template.id}`,
        }))}
      />
    </Stack>
  );
}

/** Deployments this month in words; nothing where the plan has none (its badge says so already). */
function deploymentsNote(monthly: Count | undefined): string | undefined {
  if (!monthly || notInPlan(monthly)) return undefined;
  return monthly.limit === null
    ? `${monthly.used} deployed this month (unlimited).`
    : `${monthly.used} of ${monthly.limit} deployments used this month.`;
}

/** The two other loot limits of the plan in words: loot kept in parties, and deployments this month. */
function lootUsageNote(instances: Count | undefined, monthly: Count | undefined): string | undefined {
  if (!instances || !monthly) return undefined;
  const kept = notInPlan(instances)
    ? undefined
    : instances.limit === null
      ? `${instances.used} loot deployed in your parties (unlimited)`
      : `${instances.used} of ${instances.limit} loot deployed in your parties`;
  const month = deploymentsNote(monthly);
  return kept && month ? `${kept}; ${month}` : kept ? `${kept}.` : month;
}
