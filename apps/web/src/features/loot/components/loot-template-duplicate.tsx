import { lootMessages } from '@haversack/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { isApiError } from '../../../lib/http-client';
import { toast } from '../../../lib/toast';
import {
  currentPlace,
  planRefusalMessage,
  upgradeLinkLabel,
  upgradePathFor,
} from '../../../lib/upgrade-link';
import { duplicateLootTemplate, lootErrorMessage, lootKeys } from '../api/loot-api';

export const duplicateFailed = 'Failed to duplicate loot template';

/**
 * Duplicate a template I can read (the catalogue's too) into a private one of mine, then open the copy.
 * The copy counts against the plan's loot templates: a refusal says so and links to the upgrade page.
 */
export function useDuplicateLootTemplate() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (templateId: string) => duplicateLootTemplate(templateId),
    onSuccess: async (copy) => {
      toast.success(lootMessages.duplicated);
      await queryClient.invalidateQueries({ queryKey: lootKeys.templates() });
      navigate(`/loot/templates/${copy.id}`);
    },
    onError: (error) => {
      const upgradePath = isApiError(error) ? upgradePathFor(error, currentPlace()) : null;
      if (isApiError(error) && upgradePath) {
        toast.error(planRefusalMessage(error), undefined, { label: upgradeLinkLabel, href: upgradePath });
      } else {
        toast.error(lootErrorMessage(error, duplicateFailed));
      }
    },
  });
}
