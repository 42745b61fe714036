import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from './routes';

/** Every route with no children, with its full path. */
function leaves(list: RouteObject[], parent = ''): { path: string; route: RouteObject }[] {
  return list.flatMap((route) => {
    const path = route.path === undefined ? parent : `${parent.replace(/\/$/, '')}/${route.path}`;
    return route.children?.length ? leaves(route.children, path) : [{ path, route }];
  });
}

describe('the app routes', () => {
  it('give every page something to draw, so React Router warns of no "empty" page (redirects included)', () => {
    const drawless = leaves(routes)
      .filter(({ route }) => route.element === undefined && !route.Component && !route.lazy)
      .map(({ path }) => path);
    expect(drawless).toEqual([]);
  });
});
