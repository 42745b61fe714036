import { type ShopTemplate, shopMessages } from '@haversack/contracts';
import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { UpgradePrompt } from '../../../components/upgrade-prompt';
import { isApiError } from '../../../lib/http-client';
import { toast } from '../../../lib/toast';
import { isPlanRefusal } from '../../../lib/upgrade-link';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { myActivePartiesQuery } from '../../parties/api/parties-api';
import { DeployPartyGate, DeployPartySelect } from '../../parties/components/deploy-party-gate';
import { type DeployAsk, deployAllowanceQuery } from '../../subscription/api/deploy-allowance';
import { DeployPlanNotice } from '../../subscription/components/deploy-plan-notice';
import { deployShop, invalidateShop } from '../api/shops-api';
import { isShopManagedParty } from './deploy-access';
import { DiscountInput, discountPercentError, discountRateOf } from './discount-input';

export const noManagedParties = 'You are not the GM or a manager of any active party.';
export const whoMayDeployShops = 'Only the GM or a manager of a party can deploy a shop into it.';

/** What a shop's deployment needs of the plan in its party (ShopsService.deploy checks the same). */
const shopDeployAsk: DeployAsk = {
  feature: 'shops_deployment',
  limits: ['shop_instances', 'shop_deployments_monthly'],
};

/** The parties I may deploy a shop into: active ones I run or manage (shares the cache of the party pickers). */
export function useShopManagedParties(enabled = true) {
  const parties = useQuery({ ...myActivePartiesQuery(), enabled });
  return {
    ...parties,
    managed: (parties.data?.parties ?? []).filter(isShopManagedParty),
  };
}

/**
 * Deploy a template into a party where I am the GM or a manager (spec/02 §7 POST shop_instances). A plan
 * without `shops_deployment`, or a used-up limit, shows the upgrade prompt in place.
 */
export function DeployShopDialog({
  template,
  initialPartyId = null,
  onClose,
}: {
  template: ShopTemplate | null;
  initialPartyId?: string | null;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // The title keeps the template's name while the dialog closes (template null) after a deploy.
  const lastShown = useRef(template);
  if (template) lastShown.current = template;
  const shown = template ?? lastShown.current;
  const parties = useShopManagedParties(template !== null);
  const managed = parties.managed;
  const [partyId, setPartyId] = useState<string | null>(initialPartyId);
  const [name, setName] = useState('');
  const [discount, setDiscount] = useState<number | string>(0);
  useEffect(() => {
    if (!partyId && managed.length === 1) setPartyId(managed[0]?.id ?? null);
  }, [partyId, managed]);

  // One deploy per press: a second tap in the same task would deploy a second shop (use-single-flight.ts).
  const once = useSingleFlight(template);
  const deploy = useMutation({
    mutationFn: () => {
      if (!template || !partyId) throw new Error('Choose a party');
      const trimmed = name.trim();
      return deployShop({
        shop_template_id: template.id,
        party_id: partyId,
        is_active: true,
        discount_rate: discountRateOf(discount),
        ...(trimmed && trimmed !== template.display_name ? { name: trimmed } : {}),
      });
    },
    onSuccess: async (shop) => {
      toast.success(shopMessages.deployed(shop.name));
      await invalidateShop(queryClient, shop.id);
      onClose();
      navigate(`/shops/instances/${shop.id}`);
    },
  });
  useEffect(() => {
    if (template) {
      setName(template.display_name);
      setDiscount(0);
      deploy.reset();
    }
  }, [template, deploy.reset]);
  const error = deploy.error;
  const refusal = error && isApiError(error) && isPlanRefusal(error);
  // The plan in the chosen party, asked as soon as there is one: a refusal is said before the form is filled.
  const allowance = useQuery({
    ...deployAllowanceQuery(partyId ?? '', shopDeployAsk),
    enabled: template !== null && partyId !== null,
  });
  const refusedUpFront = allowance.data ?? null;

  return (
    <Modal
      opened={template !== null}
      onClose={onClose}
      title={shown ? `Deploy ${shown.display_name}` : 'Deploy shop'}
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <DeployPartyGate
        parties={parties}
        eligible={managed}
        noneText={noManagedParties}
        whoMayDeploy={whoMayDeployShops}
        onClose={onClose}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            // The field already says why; nothing is deployed with a discount out of range.
            if (discountPercentError(discount) === null) once(() => deploy.mutateAsync());
          }}
        >
          <Stack gap="md">
            <DeployPartySelect parties={managed} value={partyId} onChange={setPartyId} />
            {refusedUpFront && !refusal ? <DeployPlanNotice refusal={refusedUpFront} what="shops" /> : null}
            <TextInput
              label="Shop name"
              description="Defaults to the template's name"
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              maxLength={99}
            />
            <DiscountInput value={discount} onChange={setDiscount} />
            {refusal ? <UpgradePrompt error={error} /> : null}
            {error && !refusal ? (
              <Alert color="red" variant="light" role="alert">
                {isApiError(error) ? (error.details[0]?.message ?? error.message) : error.message}
              </Alert>
            ) : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={deploy.isPending} disabled={!partyId || refusedUpFront !== null}>
                Deploy Shop
              </Button>
            </Group>
          </Stack>
        </form>
      </DeployPartyGate>
    </Modal>
  );
}
