import { type LootTemplate, lootMessages } from '@haversack/contracts';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DetailLoadError } from '../../../components/detail-load-error';
import { isRecordNotFound } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { ReportButton } from '../../moderation/components/report-button';
import { NoDeployablePartyNote } from '../../parties/components/deploy-party-gate';
import { deleteLootTemplate, lootErrorMessage, lootKeys, lootTemplateQuery } from '../api/loot-api';
import {
  DeployLootDialog,
  noGmParties,
  useLootGmParties,
  whoMayDeployLoot,
} from '../components/deploy-loot-dialog';
import { LootItemList } from '../components/loot-item-list';
import { LootTagList, LootTemplateBadges } from '../components/loot-template-card';
import { useDuplicateLootTemplate } from '../components/loot-template-duplicate';

export const lootTemplateDeleted = 'Loot template deleted';
export const lootTemplateDeleteFailed = 'Failed to delete loot template';

function Heading({ template }: { template: LootTemplate }) {
  return (
    <Stack gap={6} style={{ minWidth: 0, flex: '1 1 280px' }}>
      <Title order={1} style={{ overflowWrap: 'anywhere' }}>
        {template.name}
      </Title>
      <LootTemplateBadges template={template} />
      <Text size="sm" c="dimmed">
        {template.is_system ? 'From the catalogue' : `By ${template.creator_name ?? 'Unknown'}`}
      </Text>
    </Stack>
  );
}

/**
 * /loot/templates/{id}: a template with its items and worth. Anyone who can read it deploys it (to a party
 * they run) or duplicates it; its creator edits, fills and deletes it.
 */
export function LootTemplateDetailPage() {
  const { id = '' } = useParams();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useQuery(lootTemplateQuery(id));
  const [deploying, setDeploying] = useState(false);
  // As on the list: once my parties are in and none is mine to deploy into, Deploy says why it cannot.
  const parties = useLootGmParties();
  const noPartyNoteId = useId();
  const deployBlockedBy = parties.isSuccess && parties.gmParties.length === 0 ? noPartyNoteId : null;
  const [confirming, setConfirming] = useState(false);
  usePageTitle(query.data?.name ?? 'Loot Template');
  const duplicate = useDuplicateLootTemplate();
  const remove = useMutation({
    mutationFn: () => deleteLootTemplate(id),
    onSuccess: async () => {
      toast.success(lootTemplateDeleted);
      setConfirming(false);
      queryClient.removeQueries({ queryKey: lootKeys.template(id) });
      await queryClient.invalidateQueries({ queryKey: lootKeys.templates() });
      navigate('/loot/templates');
    },
    onError: (error) => toast.error(lootErrorMessage(error, lootTemplateDeleteFailed)),
  });

  if (query.isPending) {
    return (
      <Stack gap="md" aria-busy="true">
        <Title order={1}>
          <VisuallyHidden>Loading loot template</VisuallyHidden>
        </Title>
        <Skeleton height={32} width={240} />
        <Skeleton height={20} width={160} />
        <Skeleton height={200} />
      </Stack>
    );
  }
  if (query.isError && (!query.data || isRecordNotFound(query.error))) {
    return (
      <DetailLoadError
        error={query.error}
        onRetry={() => void query.refetch()}
        subject="Loot Template"
        notFoundText="The loot template might not exist or you may not have permission to view it."
        back={{ href: '/loot/templates', label: 'Back to Loot Templates' }}
      />
    );
  }
  const template = query.data;
  const items = template.loot_items ?? [];
  const canChange = template.is_owner && !template.is_system;
  return (
    <Stack gap="lg" maw={960}>
      <Group justify="space-between" align="flex-start">
        <Heading template={template} />
        <Group gap="sm">
          <Button
            onClick={() => setDeploying(true)}
            disabled={deployBlockedBy !== null}
            aria-describedby={deployBlockedBy ?? undefined}
          >
            Deploy to Party
          </Button>
          <Button
            variant="default"
            onClick={() => duplicate.mutate(template.id)}
            loading={duplicate.isPending}
          >
            Duplicate
          </Button>
          {template.visibility === 'public' && !template.is_owner && !template.is_system ? (
            <ReportButton targetType="loot_template" targetId={template.id} targetName={template.name} />
          ) : null}
          {canChange ? (
            <>
              <Button component={Link} to={`/loot/templates/${template.id}/edit`} variant="default">
                Edit
              </Button>
              <Button component={Link} to={`/loot/templates/${template.id}/inventory`} variant="default">
                Manage Items
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
            noneText={noGmParties}
            whoMayDeploy={whoMayDeployLoot}
          />
        ) : null}
      </Group>
      {template.is_system ? (
        <Alert role="note" variant="light" color="blue" data-testid="read-only-notice">
          {lootMessages.systemTemplate}
        </Alert>
      ) : null}
      {template.description ? <Text style={{ whiteSpace: 'pre-wrap' }}>{template.description}</Text> : null}
      {template.source ? (
        <Text size="sm">
          <Text span fw={600}>
            Source:
          </Text>{' '}
          {template.source}
        </Text>
      ) : null}
      <LootTagList tags={template.tag_list} />
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Title order={2} size="h4">
            Items
          </Title>
          <LootItemList items={items} totalValueCp={template.total_value_cp} />
        </Stack>
      </Paper>
      <Anchor component={Link} to="/loot/templates">
        Back to Loot Templates
      </Anchor>
      <DeployLootDialog
        template={deploying ? template : null}
        initialPartyId={searchParams.get('party_id')}
        onClose={() => setDeploying(false)}
      />
      <ConfirmDialog
        opened={confirming}
        title="Delete loot template"
        message={`Delete ${template.name}? Loot already deployed from it stays with its party. This cannot be undone.`}
        confirmLabel="Delete"
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => remove.mutate()}
      />
    </Stack>
  );
}
