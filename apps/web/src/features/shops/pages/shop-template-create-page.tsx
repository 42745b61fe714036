import { shopMessages } from '@haversack/contracts';
import { Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { PlanLimitHint } from '../../subscription/components/plan-limit-hint';
import { createShopTemplate, shopKeys } from '../api/shops-api';
import { ShopTemplateForm, shopTemplateFormValues } from '../components/shop-template-form';

/** /shops/new and /shops/templates/new: a new shop template, then straight to stocking it. */
export function ShopTemplateCreatePage() {
  usePageTitle('New Shop');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <Stack gap="lg" maw={860}>
      <Stack gap={4}>
        <Title order={1}>New Shop</Title>
        <Text c="dimmed">A shop template: stock it with items, then deploy it to any of your parties.</Text>
        <PlanLimitHint resource="shop_templates" />
      </Stack>
      <ShopTemplateForm
        initial={shopTemplateFormValues()}
        submitLabel="Create Shop"
        onCancel={() => navigate('/shops/templates')}
        onSubmit={async (input) => {
          const template = await createShopTemplate(input);
          toast.success(shopMessages.created);
          await queryClient.invalidateQueries({ queryKey: shopKeys.templates() });
          navigate(`/shops/templates/${template.id}/inventory`);
        }}
      />
    </Stack>
  );
}
