import { shopMessages } from '@haversack/contracts';
import { Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { subscriptionKeys } from '../../subscription/api/subscription-api';
import { PlanLimitHint } from '../../subscription/components/plan-limit-hint';
import { usePlanLimit } from '../../subscription/plan-limit';
import { createShopTemplate, shopKeys } from '../api/shops-api';
import { ShopTemplateForm, shopTemplateFormValues } from '../components/shop-template-form';

/** /shops/new and /shops/templates/new: a new shop template, then straight to stocking it. */
export function ShopTemplateCreatePage() {
  usePageTitle('New Shop');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const limit = usePlanLimit('shop_templates');
  return (
    <Stack gap="lg" maw={860}>
      <Stack gap={4}>
        <Title order={1}>New Shop</Title>
        <Text c="dimmed">A shop template: stock it with items, then deploy it to any of your parties.</Text>
        {/* The limit is said here only: the submit stays disabled while it holds, so no refusal repeats it. */}
        <PlanLimitHint resource="shop_templates" id={limit.hintId} />
      </Stack>
      <ShopTemplateForm
        initial={shopTemplateFormValues()}
        submitLabel="Create Shop"
        submitBlockedBy={limit.blockedBy}
        onCancel={() => navigate('/shops/templates')}
        onSubmit={async (input) => {
          const template = await createShopTemplate(input);
          toast.success(shopMessages.created);
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: shopKeys.templates() }),
            queryClient.invalidateQueries({ queryKey: subscriptionKeys.account() }),
          ]);
          navigate(`/shops/templates/${template.id}/inventory`);
        }}
        onOtherError={limit.onRefusal}
      />
    </Stack>
  );
}
