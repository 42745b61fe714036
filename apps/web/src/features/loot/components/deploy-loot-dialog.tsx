import { type LootTemplate, lootMessages, type Party } from '@haversack/contracts';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
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
import { deployLoot, invalidateLoot, lootErrorMessage } from '../api/loot-api';

export const noGmParties = 'You are not the GM of any active party.';
export const whoMayDeployLoot = 'Only the GM of a party can deploy loot into it.';

/** What a loot's deployment needs of the plan in its party (LootService.deploy checks the same). */
const lootDeployAsk: DeployAsk = { limits: ['loot_instances', 'loot_deployments_monthly'] };

/** spec/02 §6: only the GM of a party deploys loot into it (managers are not GMs here); archived parties are read-only. */
export function isLootGmParty(party: Party): boolean {
  return party.user_role === 'gm' && !party.is_archived;
}

/** The parties I may deploy loot into (shares the cache of the party pickers). */
export function useLootGmParties(enabled = true) {
  const parties = useQuery({ ...myActivePartiesQuery(), enabled });
  return { ...parties, gmParties: (parties.data?.parties ?? []).filter(isLootGmParty) };
}

/** The party detail page opens on its Loot tab from this address. */
export const partyLootPath = (partyId: string) => `/parties/${partyId}?tab=loot`;

/**
 * Deploy a loot template into a party where I am the GM (spec/02 §7 POST loot_instances): the loot starts
 * hidden, named and sourced as the template unless changed here. A used-up plan limit shows the upgrade
 * prompt in place as well as the toast.
 */
export function DeployLootDialog({
  template,
  initialPartyId = null,
  onClose,
}: {
  template: LootTemplate | null;
  /** Preselected (the party Loot tab's "Deploy Loot Template" link carries it). */
  initialPartyId?: string | null;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // The title keeps the template's name while the dialog closes (template null) after a deploy.
  const lastShown = useRef(template);
  if (template) lastShown.current = template;
  const shown = template ?? lastShown.current;
  const parties = useLootGmParties(template !== null);
  const gmParties = parties.gmParties;
  const [partyId, setPartyId] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [source, setSource] = useState('');
  const [location, setLocation] = useState('');

  // One deploy per press: a second tap in the same task would deploy a second loot (use-single-flight.ts).
  const once = useSingleFlight(template);
  const deploy = useMutation({
    mutationFn: () => {
      if (!template || !partyId) throw new Error('Choose a party');
      const location_name = location.trim();
      return deployLoot({
        loot_template_id: template.id,
        party_id: partyId,
        ...(name.trim() ? { name: name.trim() } : {}),
        source: source.trim(),
        ...(location_name ? { location_name } : {}),
      });
    },
    onSuccess: async (loot) => {
      toast.success(lootMessages.deployed);
      await invalidateLoot(queryClient, loot.party_id, loot.id);
      onClose();
      navigate(partyLootPath(loot.party_id));
    },
    onError: (error) => toast.error(lootErrorMessage(error, lootMessages.deployFailed)),
  });

  // Each opening starts from the template's own name and source.
  useEffect(() => {
    if (template) {
      setName(template.name);
      setSource(template.source);
      setLocation('');
      setPartyId(null);
      deploy.reset();
    }
  }, [template, deploy.reset]);

  // The party asked for (when I am its GM), else the only one I run.
  useEffect(() => {
    if (partyId || gmParties.length === 0) return;
    const wanted = gmParties.find((p) => p.id === initialPartyId);
    if (wanted) setPartyId(wanted.id);
    else if (gmParties.length === 1) setPartyId(gmParties[0]?.id ?? null);
  }, [partyId, gmParties, initialPartyId]);

  const error = deploy.error;
  const refusal = error && isApiError(error) && isPlanRefusal(error);
  // The plan in the chosen party, asked as soon as there is one: a refusal is said before the form is filled.
  const allowance = useQuery({
    ...deployAllowanceQuery(partyId ?? '', lootDeployAsk),
    enabled: template !== null && partyId !== null,
  });
  const refusedUpFront = allowance.data ?? null;
  const nameError =
    error && isApiError(error) ? error.details.find((d) => d.field.endsWith('name'))?.message : undefined;

  return (
    <Modal
      opened={template !== null}
      onClose={onClose}
      title={shown ? `Deploy ${shown.name}` : 'Deploy loot'}
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <DeployPartyGate
        parties={parties}
        eligible={gmParties}
        noneText={noGmParties}
        whoMayDeploy={whoMayDeployLoot}
        onClose={onClose}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            once(() => deploy.mutateAsync());
          }}
        >
          <Stack gap="md">
            <DeployPartySelect parties={gmParties} value={partyId} onChange={setPartyId} />
            {refusedUpFront && !refusal ? <DeployPlanNotice refusal={refusedUpFront} what="loot" /> : null}
            <TextInput
              label="Loot name"
              description="Defaults to the template's name"
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              maxLength={99}
              error={nameError}
            />
            <TextInput
              label="Source"
              description="Who or what carried it"
              placeholder="e.g., Goblin boss"
              value={source}
              onChange={(event) => setSource(event.currentTarget.value)}
              maxLength={100}
            />
            <TextInput
              label="Location"
              description="Where the party finds it (optional)"
              placeholder="e.g., The throne room"
              value={location}
              onChange={(event) => setLocation(event.currentTarget.value)}
              maxLength={100}
            />
            <Text size="xs" c="dimmed">
              The loot starts hidden: reveal it to the party when they find it.
            </Text>
            {refusal ? <UpgradePrompt error={error} /> : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={deploy.isPending} disabled={!partyId || refusedUpFront !== null}>
                Deploy Loot
              </Button>
            </Group>
          </Stack>
        </form>
      </DeployPartyGate>
    </Modal>
  );
}
