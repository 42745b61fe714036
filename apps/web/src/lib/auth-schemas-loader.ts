/**
 * The schemas that validate the session's answers (sign-in, refresh, the current user), with zod, live in
 * a chunk of their own: a request starts without waiting for them, and /login shows without loading them
 * (issue 13 §1). The sign-in form starts loading them as soon as someone uses it.
 */
type AuthSchemas = typeof import('./auth-schemas');

let loaded: AuthSchemas | null = null;
let loading: Promise<AuthSchemas> | null = null;

export function loadAuthSchemas(): Promise<AuthSchemas> {
  if (!loading) {
    const attempt = import('./auth-schemas').then((schemas) => {
      loaded = schemas;
      return schemas;
    });
    // A chunk that could not load (offline) is asked for again next time.
    attempt.catch(() => {
      if (loading === attempt) loading = null;
    });
    loading = attempt;
  }
  return loading;
}

/** The schema `pick` chooses: at once when the chunk is in, else when it has loaded. */
export function authSchema<S>(pick: (schemas: AuthSchemas) => S): S | Promise<S> {
  return loaded ? pick(loaded) : loadAuthSchemas().then(pick);
}
