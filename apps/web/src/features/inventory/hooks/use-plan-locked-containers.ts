import { type Container, featureLabels } from '@haversack/contracts';
import { useQueries } from '@tanstack/react-query';
import { PARTY_COLLABORATION_FEATURE, partyCollaborationQuery } from '../api/inventory-api';

/** Why a party's container is not offered as a move: the same words as the plan prompts' title. */
export const partyCollaborationLocked = `${featureLabels[PARTY_COLLABORATION_FEATURE]} is not included in your plan`;

/** Where the upgrade that lifts the lock is (as the plan prompts link it). */
export const partyCollaborationUpgradePath = `/subscription/upgrade?${new URLSearchParams({
  feature: PARTY_COLLABORATION_FEATURE,
})}`;

/**
 * The ids of the containers among `containers` that the user's plan does not let them change: a party's
 * own containers (its stash) while their plan in that party, patronage included, lacks party collaboration
 * (spec/01 §3; the server refuses any move into or out of them with 403). A party whose answer has not
 * arrived, or failed, locks nothing: the server still decides, as before.
 */
export function usePlanLockedContainers(containers: readonly Container[]): ReadonlySet<string> {
  const partyIds = [
    ...new Set(containers.filter((c) => c.owner.type === 'party' && c.can_act).map((c) => c.owner.id)),
  ];
  return useQueries({
    queries: partyIds.map((partyId) => partyCollaborationQuery(partyId)),
    combine: (results) => {
      const lockedParties = new Set(partyIds.filter((_, index) => results[index]?.data === false));
      return new Set(
        containers.filter((c) => c.owner.type === 'party' && lockedParties.has(c.owner.id)).map((c) => c.id),
      );
    },
  });
}
