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
 * The allowances (of those a change here would spend, `actionScopes`) that the server says are used up
 * this month, from the same `check_limit` answers as the allowance notice (one question per allowance,
 * fresh 30 s). An answer not yet in, failed or unlimited spends nothing: the server still decides.
 */
export function useSpentAllowances(
  containers: readonly Container[],
  partyId: string | null,
): ReadonlySet<ActionScope> {
  const scopes = actionScopes(containers);
  return useQueries({
    queries: scopes.map((scope) => allowanceQuery(scope, partyId)),
    combine: (answers) => new Set(scopes.filter((_, index) => answers[index]?.data?.allowed === false)),
  });
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
