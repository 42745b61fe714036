import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { PageError } from '../components/page-error';
import { withQueryClient } from '../lib/query-client-loader';

/**
 * A route whose page, or layout, is loaded on demand; a failed load shows the page-level error panel
 * (spec/01 §2). Pages draw with TanStack Query's client in place (it is not part of /login's first load); a
 * page that asks the API nothing says `{ queries: false }` and loads without it.
 *
 * React Router runs a route's `lazy` once and keeps what it gave, and a `lazy` that rejects goes to the
 * root's error page, whose only way on is a full reload. So a page whose code could not be downloaded
 * (offline, server down) gets a loader instead, which React Router runs at once, at every later navigation
 * to the route and at a revalidation (the panel's "Try again"): it imports the page again, and its failure
 * shows the route's error panel, until the page arrives; no full reload needed. A layout's panel names the
 * page asked for below it (its `handle`, see PageError); `pageName` is said where that page has none.
 */
export function lazyRoute(
  pageName: string,
  load: () => Promise<ComponentType>,
  { queries = true }: { queries?: boolean } = {},
) {
  const importPage = () => (queries ? withQueryClient(load) : load());
  return {
    lazy: () =>
      importPage().then(
        (Component) => ({ Component }),
        () => {
          // Drawn only once the loader has succeeded, which sets it.
          let Page: ComponentType;
          return {
            loader: async () => {
              Page ??= await importPage();
              return null;
            },
            Component: () => <Page />,
          };
        },
      ),
    errorElement: <PageError pageName={pageName} />,
  } satisfies RouteObject;
}

/** A page at `path` (the index route without one), loaded on demand: see lazyRoute. */
export function lazyPage(
  path: string | undefined,
  pageName: string,
  load: () => Promise<ComponentType>,
  options?: { queries?: boolean },
): RouteObject {
  return {
    ...(path === undefined ? { index: true } : { path }),
    ...lazyRoute(pageName, load, options),
    handle: pageName,
  };
}
