import { lootMessages } from '@haversack/contracts';
import { Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { subscriptionKeys } from '../../subscription/api/subscription-api';
import { PlanLimitHint } from '../../subscription/components/plan-limit-hint';
import { usePlanLimit } from '../../subscription/plan-limit';
import { createLootTemplate, lootKeys } from '../api/loot-api';
import { LootTemplateForm, lootTemplateFormValues } from '../components/loot-template-form';

/** /loot/templates/new: a new loot template, then straight to filling it with items and coins. */
export function LootTemplateCreatePage() {
  usePageTitle('New Loot Template');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const limit = usePlanLimit('loot_templates');
  return (
    <Stack gap="lg" maw={860}>
      <Stack gap={4}>
        <Title order={1}>New Loot Template</Title>
        <Text c="dimmed">
          A loot template: fill it with items and coins, then deploy it to any party you run as GM.
        </Text>
        {/* The limit is said here only: the submit stays disabled while it holds, so no refusal repeats it. */}
        <PlanLimitHint resource="loot_templates" id={limit.hintId} />
      </Stack>
      <LootTemplateForm
        initial={lootTemplateFormValues()}
        submitLabel="Create Loot Template"
        submitBlockedBy={limit.blockedBy}
        onCancel={() => navigate('/loot/templates')}
        onSubmit={async (input) => {
          const template = await createLootTemplate(input);
          toast.success(lootMessages.created);
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: lootKeys.templates() }),
            queryClient.invalidateQueries({ queryKey: subscriptionKeys.account() }),
          ]);
          navigate(`/loot/templates/${template.id}/inventory`);
        }}
        onOtherError={limit.onRefusal}
      />
    </Stack>
  );
}
