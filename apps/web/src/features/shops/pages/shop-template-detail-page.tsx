import { type ShopTemplate, shopLocationLabel, shopMessages } from '@haversack/contracts';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconStar, IconStarFilled } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DetailLoadError } from '../../../components/detail-load-error';
import { isRecordNotFound, toastUnexplainedFailure } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import { generalMessages, toast } from '../../../lib/toast';
import { ReportButton } from '../../moderation/components/report-button';
import { NoDeployablePartyNote } from '../../parties/components/deploy-party-gate';
import {
  cloneShopTemplate,
  deleteShopTemplate,
  rateShopTemplate,
  shopKeys,
  shopTemplateQuery,
} from '../api/shops-api';
import {
  DeployShopDialog,
  noManagedParties,
  useShopManagedParties,
  whoMayDeployShops,
} from '../components/deploy-shop-dialog';
import {
  ModifierBadges,
  RatingSummary,
  RestockBadge,
  ShopTypeBadge,
  StockBadge,
} from '../components/shop-badges';
import { TemplateDeployments } from '../components/template-deployments';
import { TemplateWaresTable } from '../components/template-wares-table';

/** A signed-in user rates a public template of someone else 1 to 5, once, and may change it. */
function RateTemplate({ template }: { template: ShopTemplate }) {
  const queryClient = useQueryClient();
  const rate = useMutation({
    mutationFn: (rating: number) => rateShopTemplate(template.id, rating),
    onSuccess: (updated) => {
      toast.success(shopMessages.rated);
      queryClient.setQueryData(shopKeys.template(template.id), updated);
      void queryClient.invalidateQueries({ queryKey: [...shopKeys.templates(), 'list'] });
    },
  });
  if (template.visibility !== 'public' || template.is_owner) return null;
  const mine = template.my_rating ?? 0;
  return (
    <Group gap="sm" data-testid="rate-template" role="group" aria-labelledby="my-rating-label">
      <Text size="sm" fw={600} id="my-rating-label">
        Your rating
      </Text>
      <Group gap={2}>
        {[1, 2, 3, 4, 5].map((stars) => (
          <ActionIcon
            key={stars}
            variant="subtle"
            color="yellow"
            // A subtle icon is drawn in shade 6 whatever shade is asked (yellow-6 is 1.9:1 on white, under
            // the 3:1 an icon needs): the stars take the light variant's readable yellow-brown instead.
            style={{ color: 'var(--mantine-color-yellow-light-color)' }}
            size="lg"
            aria-label={`Rate ${stars} out of 5`}
            aria-pressed={template.my_rating === stars}
            disabled={rate.isPending}
            onClick={() => rate.mutate(stars)}
          >
            {stars <= mine ? (
              <IconStarFilled size={20} aria-hidden="true" />
            ) : (
              <IconStar size={20} aria-hidden="true" />
            )}
          </ActionIcon>
        ))}
      </Group>
    </Group>
  );
}

/** /shops/templates/{id} and /shops/{id}: a template, its wares, rating, Deploy, Clone, Edit, Delete. */
export function ShopTemplateDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useQuery(shopTemplateQuery(id));
  const [deploying, setDeploying] = useState(false);
  // As on the list: once my parties are in and none is mine to deploy into, Deploy says why it cannot.
  const parties = useShopManagedParties();
  const noPartyNoteId = useId();
  const deployBlockedBy = parties.isSuccess && parties.managed.length === 0 ? noPartyNoteId : null;
  const [confirming, setConfirming] = useState(false);
  usePageTitle(query.data?.display_name ?? 'Shop template');
  const clone = useMutation({
    mutationFn: () => cloneShopTemplate(id),
    onSuccess: async (copy) => {
      toast.success(shopMessages.cloned);
      await queryClient.invalidateQueries({ queryKey: shopKeys.templates() });
      navigate(`/shops/templates/${copy.id}`);
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteShopTemplate(id),
    onSuccess: async () => {
      toast.success('Shop template deleted');
      queryClient.removeQueries({ queryKey: shopKeys.template(id) });
      await queryClient.invalidateQueries({ queryKey: shopKeys.templates() });
      navigate('/shops/templates');
    },
    onError: (error) => toastUnexplainedFailure(error, generalMessages.deleteFailed),
  });

  if (query.isPending) {
    return (
      <Stack gap="md" aria-busy="true">
        <Title order={1}>
          <VisuallyHidden>Loading shop template</VisuallyHidden>
        </Title>
        <Skeleton height={32} width={240} />
        <Skeleton height={200} />
      </Stack>
    );
  }
  if (query.isError && (!query.data || isRecordNotFound(query.error))) {
    return (
      <DetailLoadError
        error={query.error}
        onRetry={() => void query.refetch()}
        subject="Shop"
        notFoundText="The shop template might not exist or you may not have permission to view it."
        back={{ href: '/shops', label: 'Back to Shops' }}
      />
    );
  }
  const template = query.data;
  const items = template.shop_items ?? [];
  return (
    <Stack gap="lg" maw={960}>
      <Group justify="space-between" align="flex-start">
        <Stack gap={6} style={{ minWidth: 0, flex: '1 1 280px' }}>
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>
            {template.display_name}
          </Title>
          <Group gap={6}>
            <ShopTypeBadge type={template.shop_type} />
            <Badge variant="light" color="gray">
              {template.visibility}
            </Badge>
            {template.is_system ? <Badge color="gray">Catalogue</Badge> : null}
          </Group>
          <Text size="sm" c="dimmed">
            {template.is_system ? 'From the SRD catalogue' : `By ${template.creator_name ?? 'Unknown'}`}
          </Text>
        </Stack>
        <Group gap="sm">
          <Button
            onClick={() => setDeploying(true)}
            disabled={deployBlockedBy !== null}
            aria-describedby={deployBlockedBy ?? undefined}
          >
            Deploy to Party
          </Button>
          <Button variant="default" onClick={() => clone.mutate()} loading={clone.isPending}>
            Clone
          </Button>
          {template.visibility === 'public' && !template.is_owner && !template.is_system ? (
            <ReportButton targetType="shop_template" targetId={template.id} targetName={template.name} />
          ) : null}
          {template.is_owner ? (
            <>
              <Button component={Link} to={`/shops/templates/${template.id}/edit`} variant="default">
                Edit
              </Button>
              <Button component={Link} to={`/shops/templates/${template.id}/inventory`} variant="default">
                Manage Inventory
              </Button>
              <Button color="red" variant="light" onClick={() => setConfirming(true)}>
                Delete
              </Button>
            </>
          ) : null}
        </Group>
        {deployBlockedBy ? (
          <NoDeployablePartyNote
            id={deployBlockedBy}
            noneText={noManagedParties}
            whoMayDeploy={whoMayDeployShops}
          />
        ) : null}
      </Group>
      <RatingSummary average={template.average_rating} count={template.ratings_count} />
      <RateTemplate template={template} />
      {template.display_description ? (
        <Text style={{ whiteSpace: 'pre-wrap' }}>{template.display_description}</Text>
      ) : null}
      <Group gap={6}>
        <StockBadge count={template.items_count} />
        <RestockBadge days={template.default_restock_days} />
        <ModifierBadges buyModifier={template.buy_modifier} sellModifier={template.sell_modifier} />
      </Group>
      {template.display_owner || template.display_location ? (
        <Text size="sm">
          {[
            template.display_owner && `Kept by ${template.display_owner}`,
            template.display_location && shopLocationLabel(template.display_location),
          ]
            .filter(Boolean)
            .join(' · ')}
        </Text>
      ) : null}
      {template.tag_list.length > 0 ? (
        <Group gap={6} aria-label="Tags">
          {template.tag_list.map((tag) => (
            <Badge key={tag} variant="outline" color="gray">
              {tag}
            </Badge>
          ))}
        </Group>
      ) : null}
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Title order={2} size="h4">
            Wares
          </Title>
          {items.length === 0 ? (
            <Center py="md">
              <Text c="dimmed" size="sm">
                This shop template has no items yet.
              </Text>
            </Center>
          ) : (
            <TemplateWaresTable items={items} />
          )}
        </Stack>
      </Paper>
      <TemplateDeployments templateId={template.id} />
      <Anchor component={Link} to="/shops">
        Back to Shops
      </Anchor>
      <DeployShopDialog template={deploying ? template : null} onClose={() => setDeploying(false)} />
      <ConfirmDialog
        opened={confirming}
        title="Delete shop template"
        message={`Delete ${template.display_name}? Shops already deployed from it keep running. This cannot be undone.`}
        confirmLabel="Delete"
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => remove.mutate()}
      />
    </Stack>
  );
}
