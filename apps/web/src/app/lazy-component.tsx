import { type ComponentType, lazy } from 'react';

/**
 * React.lazy for a part drawn inside a route (a layout that draws another): React.lazy keeps a failed
 * download's error and throws it at every later render, so the route's error panel and its "Try again"
 * (see lazyPage) could never get past it. This one forgets a failed download: the next render imports the
 * part again. Render it inside a Suspense.
 */
export function lazyComponent(load: () => Promise<ComponentType>): ComponentType {
  const attempt = () =>
    load().then(
      (Component) => ({ default: Component }),
      (error: unknown) => {
        Lazy = lazy(attempt);
        throw error;
      },
    );
  let Lazy = lazy(attempt);
  return function LazyComponent() {
    return <Lazy />;
  };
}
