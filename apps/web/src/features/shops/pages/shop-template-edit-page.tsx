import { shopMessages } from '@haversack/contracts';
import { Anchor, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { DetailLoadError } from '../../../components/detail-load-error';
import { isRecordNotFound } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { shopKeys, shopTemplateQuery, updateShopTemplate } from '../api/shops-api';
import { ShopTemplateForm, shopTemplateFormValues } from '../components/shop-template-form';

/** /shops/{id}/edit and /shops/templates/{id}/edit: the creator changes a template. */
export function ShopTemplateEditPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useQuery(shopTemplateQuery(id));
  usePageTitle(query.data ? `Edit ${query.data.display_name}` : 'Edit Shop');
  if (query.isPending) {
    return (
      <Stack gap="md" aria-busy="true">
        <Title order={1}>
          <VisuallyHidden>Loading shop template</VisuallyHidden>
        </Title>
        <Skeleton height={320} />
      </Stack>
    );
  }
  if (query.isError && (!query.data || isRecordNotFound(query.error))) {
    return (
      <DetailLoadError
        error={query.error}
        onRetry={() => void query.refetch()}
        subject="Shop"
        heading="Edit Shop"
        notFoundText="The shop template might not exist or you may not have permission to view it."
        back={{ href: '/shops/templates', label: 'Back to My Shop Templates' }}
      />
    );
  }
  const template = query.data;
  return (
    <Stack gap="lg" maw={860}>
      <Title order={1}>Edit {template.display_name}</Title>
      {template.is_owner ? (
        <ShopTemplateForm
          initial={shopTemplateFormValues(template)}
          submitLabel="Save Changes"
          onCancel={() => navigate(`/shops/templates/${template.id}`)}
          onSubmit={async (input) => {
            await updateShopTemplate(template.id, input);
            toast.success(shopMessages.updated);
            await queryClient.invalidateQueries({ queryKey: shopKeys.templates() });
            navigate(`/shops/templates/${template.id}`);
          }}
        />
      ) : (
        <Stack gap="sm">
          <Text>{template.is_system ? shopMessages.systemTemplate : shopMessages.notOwner}</Text>
          <Anchor component={Link} to={`/shops/templates/${template.id}`}>
            Back to {template.display_name}
          </Anchor>
        </Stack>
      )}
    </Stack>
  );
}
