import type { Container } from '@haversack/contracts';
import { useQueries } from '@tanstack/react-query';
import { type ContainerOwner, ownerContainersQuery } from '../api/inventory-api';

/**
 * Every container of the given owners (a character, its party, my other characters), in that order. The
 * owners' lists are asked for together (one request, `ownerContainersQuery`): a page that learns its owners
 * in steps passes `enabled: false` until it knows them all, so that they still go out as one.
 */
export function useOwnerContainers(owners: ContainerOwner[], options: { enabled?: boolean } = {}) {
  const enabled = options.enabled ?? true;
  return useQueries({
    queries: owners.map((owner) => ({ ...ownerContainersQuery(owner), enabled })),
    combine: (results) => ({
      containers: dedupe(results.flatMap((result) => result.data ?? [])),
      isPending: results.some((result) => result.isPending),
      // A list the user may not read (e.g. a party they left) is left out rather than failing the page; a
      // list whose refetch failed still shows what it had.
      isError: results.length > 0 && results.every((result) => result.isError && !result.data),
      refetch: () => Promise.all(results.map((result) => result.refetch())),
    }),
  });
}

function dedupe(containers: Container[]): Container[] {
  const seen = new Set<string>();
  return containers.filter((container) => {
    if (seen.has(container.id)) return false;
    seen.add(container.id);
    return true;
  });
}
