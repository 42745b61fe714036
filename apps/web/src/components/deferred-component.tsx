import { type ComponentType, useEffect, useSyncExternalStore } from 'react';

/** How long a failed load waits before it tries again, unless the browser says it is back online first. */
export const DEFERRED_RETRY_MS = 5_000;

export interface DeferredComponent<P> {
  (props: P): React.JSX.Element | null;
  /** Start loading now (at an idle moment, say), so that it is there when it is first needed. */
  preload(): Promise<void>;
}

/**
 * A part that loads on demand and may be missing for a while without harm: the toasts, the signed-in
 * effects. React.lazy would throw a failed load into the tree, and these sit beside the router, above every
 * error boundary: a network that dropped before the chunk arrived blanked the whole app. This renders
 * nothing until the module is there, tries again every few seconds and as soon as the browser is back
 * online (Chromium fetches a failed dynamic import afresh), and never throws.
 */
export function deferredComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
): DeferredComponent<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<void> | null = null;
  const listeners = new Set<() => void>();

  const preload = (): Promise<void> => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        for (const listener of listeners) listener();
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const current = () => loaded;

  function Deferred(props: P) {
    const Component = useSyncExternalStore(subscribe, current, current);
    useEffect(() => {
      if (loaded) return;
      let retry: ReturnType<typeof setTimeout> | undefined;
      let stopped = false;
      const attempt = () => {
        clearTimeout(retry);
        preload().catch(() => {
          if (!stopped) retry = setTimeout(attempt, DEFERRED_RETRY_MS);
        });
      };
      attempt();
      window.addEventListener('online', attempt);
      return () => {
        stopped = true;
        clearTimeout(retry);
        window.removeEventListener('online', attempt);
      };
    }, []);
    return Component ? <Component {...props} /> : null;
  }
  Deferred.preload = preload;
  return Deferred;
}
