import { lootMessages } from '@haversack/contracts';
import { Alert, Anchor, Skeleton, Stack, Title, VisuallyHidden } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { DetailLoadError } from '../../../components/detail-load-error';
import { isRecordNotFound } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { lootKeys, lootTemplateQuery, updateLootTemplate } from '../api/loot-api';
import { LootTemplateForm, lootTemplateFormValues } from '../components/loot-template-form';

/** /loot/templates/{id}/edit: the creator changes a template (spec/02 §1: it reuses the create form). */
export function LootTemplateEditPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useQuery(lootTemplateQuery(id));
  usePageTitle(query.data ? `Edit ${query.data.name}` : 'Edit Loot Template');
  if (query.isPending) {
    return (
      <Stack gap="md" aria-busy="true">
        <Title order={1}>
          <VisuallyHidden>Loading loot template</VisuallyHidden>
        </Title>
        <Skeleton height={32} width={240} />
        <Skeleton height={320} />
      </Stack>
    );
  }
  if (query.isError && (!query.data || isRecordNotFound(query.error))) {
    return (
      <DetailLoadError
        error={query.error}
        onRetry={() => void query.refetch()}
        subject="Loot Template"
        heading="Edit Loot Template"
        notFoundText="The loot template might not exist or you may not have permission to view it."
        back={{ href: '/loot/templates', label: 'Back to Loot Templates' }}
      />
    );
  }
  const template = query.data;
  return (
    <Stack gap="lg" maw={860}>
      <Title order={1} style={{ overflowWrap: 'anywhere' }}>
        Edit {template.name}
      </Title>
      {template.is_owner && !template.is_system ? (
        <LootTemplateForm
          initial={lootTemplateFormValues(template)}
          submitLabel="Save Changes"
          onCancel={() => navigate(`/loot/templates/${template.id}`)}
          onSubmit={async (input) => {
            await updateLootTemplate(template.id, input);
            toast.success(lootMessages.templateUpdated);
            await queryClient.invalidateQueries({ queryKey: lootKeys.templates() });
            navigate(`/loot/templates/${template.id}`);
          }}
        />
      ) : (
        <Stack gap="sm" align="flex-start">
          <Alert role="note" variant="light" color="blue">
            {template.is_system ? lootMessages.systemTemplate : lootMessages.notOwner}
          </Alert>
          <Anchor component={Link} to={`/loot/templates/${template.id}`}>
            Back to {template.name}
          </Anchor>
        </Stack>
      )}
    </Stack>
  );
}
