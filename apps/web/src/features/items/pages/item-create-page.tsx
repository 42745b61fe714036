import { Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { subscriptionKeys } from '../../subscription/api/subscription-api';
import { PlanLimitHint } from '../../subscription/components/plan-limit-hint';
import { usePlanLimit } from '../../subscription/plan-limit';
import { createItemTemplate, itemTemplateKeys } from '../api/item-templates-api';
import { TemplateForm, templateFormValues } from '../components/template-form';

/** /items/new: after creating, the user goes to /items/templates/{id} (spec/02 §2). */
export function ItemCreatePage() {
  usePageTitle('New Item');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const limit = usePlanLimit('item_templates');
  return (
    <Stack gap="lg" maw={820}>
      <Stack gap={4}>
        <Title order={1}>New Item</Title>
        <Text c="dimmed">An item template: add it to containers as often as you like.</Text>
        {/* The limit is said here only: the submit stays disabled while it holds, so no refusal repeats it. */}
        <PlanLimitHint resource="item_templates" id={limit.hintId} />
      </Stack>
      <TemplateForm
        initial={templateFormValues()}
        submitLabel="Create Item"
        submitBlockedBy={limit.blockedBy}
        onCancel={() => navigate('/items')}
        onSubmit={async (input) => {
          const template = await createItemTemplate(input);
          toast.success('Item template created successfully');
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: itemTemplateKeys.all }),
            queryClient.invalidateQueries({ queryKey: subscriptionKeys.account() }),
          ]);
          navigate(`/items/templates/${template.id}`);
        }}
        onOtherError={limit.onRefusal}
      />
    </Stack>
  );
}
