import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { PageError } from '../components/page-error';
import { withQueryClient } from '../lib/query-client-loader';

/**
 * A page whose code could not be downloaded (offline, server down): it throws the download's error as it
 * draws, so that the route's error element shows it. A `lazy` that rejects is not enough: React Router keeps
 * the route's `lazy` and then draws nothing below the last hydrate fallback, a blank app.
 */
function pageThatFailedToLoad(error: unknown): ComponentType {
  return function FailedPage(): never {
    throw error;
  };
}

/**
 * A route whose page is loaded on demand; a failed load shows the page-level error panel (spec/01 §2).
 * Pages draw with TanStack Query's client in place (it is not part of /login's first load); a page that
 * asks the API nothing says `{ queries: false }` and loads without it.
 */
export function lazyPage(
  path: string | undefined,
  pageName: string,
  load: () => Promise<ComponentType>,
  { queries = true }: { queries?: boolean } = {},
): RouteObject {
  return {
    ...(path === undefined ? { index: true } : { path }),
    lazy: async () => {
      try {
        return { Component: await (queries ? withQueryClient(load) : load()) };
      } catch (error) {
        return { Component: pageThatFailedToLoad(error) };
      }
    },
    errorElement: <PageError pageName={pageName} />,
  };
}
