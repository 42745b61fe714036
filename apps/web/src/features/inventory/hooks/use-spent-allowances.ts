import type { Container } from '@haversack/contracts';
import { useQueries } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { type ActionScope, actionScopes, allowanceQuery } from '../api/allowance-api';

/** Why an action that would spend a used-up allowance is offered disabled (the notice's own words, at 0). */
export function allowanceSpentMessage(scope: ActionScope): string {
  return `No ${scope} inventory actions left this month`;
}

/**
 * Which allowance a change of something in `container` spends: the server's `#scope` (inventory.service),
 * a character's container is personal, a party's own (its stash) is the party's.
 */
export function containerScope(container: Pick<Container, 'character_id'>): ActionScope {
  return container.character_id ? 'personal' : 'party';
}

/**
 * Which allowance a move spends: the server's `#moveWithin`, a party's when either end is a party's own
 * container, else personal (between characters' containers, whoever's they are). Unknown ends: null.
 */
export function moveScope(
  source: Pick<Container, 'character_id'> | undefined,
  target: Pick<Container, 'character_id'> | undefined,
): ActionScope | null {
  if (!source || !target) return null;
  return containerScope(source) === 'party' || containerScope(target) === 'party' ? 'party' : 'personal';
}

/**
 * One monthly allowance where an action spends it: which one, under the plan that applies in which party
 * (a sponsor's plan there may lift the user's own; null: no party, the user's own plan).
 */
export interface AllowanceAt {
  scope: ActionScope;
  partyId: string | null;
}

/**
 * What a shop trade or a loot take spends: the party's allowance in the shop's or the loot's party, whoever
 * buys, sells or takes and wherever the goods go (shops.service purchase, sell, stockItem, unstockItem and
 * loot.service take, claim, distribute all count `'party'` for `shop.partyId`/`loot.partyId`).
 */
export function partyActionAt(partyId: string): AllowanceAt {
  return { scope: 'party', partyId };
}

/**
 * What a change of something in `container` spends (a new stack from the marketplace, a split): its
 * allowance (`containerScope`) in the party the server reads for it, the stash's own party or its
 * character's (inventory.repository `context`: the container's party, else its character's). A character
 * whose party is not known (`characterParty` says undefined) leaves it unknown (null): the server decides.
 */
export function containerAllowanceAt(
  container: Pick<Container, 'character_id' | 'party_id'>,
  characterParty: (characterId: string) => string | null | undefined,
): AllowanceAt | null {
  const partyId = container.character_id ? characterParty(container.character_id) : container.party_id;
  return partyId === undefined ? null : { scope: containerScope(container), partyId };
}

const allowanceKey = (at: AllowanceAt) => `${at.scope}:${at.partyId ?? ''}`;

/**
 * Which of `places` the server says are used up this month, by `allowanceKey`, from the same `check_limit`
 * answers as the allowance notice (one question per allowance and party, fresh 30 s). An answer not yet in,
 * failed or unlimited spends nothing: the server still decides.
 */
function useSpentAt(places: readonly AllowanceAt[]): ReadonlySet<string> {
  const asked = [...new Map(places.map((at) => [allowanceKey(at), at] as const)).values()];
  return useQueries({
    queries: asked.map((at) => allowanceQuery(at.scope, at.partyId)),
    combine: (answers) =>
      new Set(asked.filter((_, index) => answers[index]?.data?.allowed === false).map(allowanceKey)),
  });
}

/**
 * The allowances (of those a change here would spend, `actionScopes`, in the workspace's party) that the
 * server says are used up this month.
 */
export function useSpentAllowances(
  containers: readonly Container[],
  partyId: string | null,
): ReadonlySet<ActionScope> {
  const scopes = actionScopes(containers);
  const spent = useSpentAt(scopes.map((scope) => ({ scope, partyId })));
  return new Set(scopes.filter((scope) => spent.has(allowanceKey({ scope, partyId }))));
}

/**
 * Outside the workspace (a shop's page, a loot's, the marketplace's Add to Container): why an action that
 * spends at one of `places` is not offered now, or null when it is, or when where it spends is not known.
 */
export function useAllowanceRefusalAt(
  places: readonly (AllowanceAt | null)[],
): (at: AllowanceAt | null) => string | null {
  const spent = useSpentAt(places.filter((at) => at !== null));
  return (at) => (at && spent.has(allowanceKey(at)) ? allowanceSpentMessage(at.scope) : null);
}

/** For one place (a shop's trades, a loot's takes): its allowance when used up this month, else null. */
export function useAllowanceSpentAt(at: AllowanceAt | null): ActionScope | null {
  const refusal = useAllowanceRefusalAt([at]);
  return at && refusal(at) ? at.scope : null;
}

const nothingSpent: ReadonlySet<ActionScope> = new Set();

/** The workspace's used-up allowances, for the menus, forms and dialogs drawn inside it. */
export const SpentAllowancesContext = createContext<ReadonlySet<ActionScope>>(nothingSpent);

/**
 * Why an action that spends `scope`'s allowance is not offered now, or null when it is (or when which
 * allowance it spends is not known: the server decides). Outside a workspace nothing is spent.
 */
export function useAllowanceRefusal(): (scope: ActionScope | null) => string | null {
  const spent = useContext(SpentAllowancesContext);
  return (scope) => (scope && spent.has(scope) ? allowanceSpentMessage(scope) : null);
}
