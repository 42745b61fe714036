/**
 * The headers of the API document (issue: outside review, "OpenAPI operations don't declare the headers the
 * prose promises"): `Idempotency-Key` on the operations that honour it (plugins/idempotency.ts), the API-token
 * budget's `X-RateLimit-*` (plugins/rate-limit.ts), `Retry-After` and `Idempotent-Replayed`, so that clients
 * generated from the document can read them. Declared here once, from what each route is, not per route.
 */

type Method = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete' | 'options';

interface OpenApiOperation {
  parameters?: { in: string; name: string }[];
  responses?: Record<string, unknown>;
  security?: { [scheme: string]: string[] }[];
  [key: string]: unknown;
}

interface OpenApiObject {
  paths?: Record<string, Partial<Record<Method, OpenApiOperation>>>;
  security?: { [scheme: string]: string[] }[];
  components?: { headers?: Record<string, unknown>; [key: string]: unknown };
  [key: string]: unknown;
}

/** What the document needs to know of a route for its headers. */
export interface RouteHeaderFacts {
  method: string;
  /** Fastify's form, `/api/v1/parties/:id`. */
  url: string;
  /** false: the route ignores Idempotency-Key (`keepNoAnswers`). */
  idempotency?: boolean | undefined;
}

const integer = { type: 'integer', minimum: 0 };

const headers = {
  'X-RateLimit-Limit': {
    description: 'On a call made with a personal API token: the calls its user may make per minute.',
    schema: integer,
  },
  'X-RateLimit-Remaining': {
    description: 'On a call made with a personal API token: the calls left in this minute’s budget.',
    schema: integer,
  },
  'X-RateLimit-Reset': {
    description: 'On a call made with a personal API token: seconds until the budget renews.',
    schema: integer,
  },
  'Retry-After': {
    description: 'Seconds to wait before sending the request again.',
    schema: { type: 'integer', minimum: 1 },
  },
  'Idempotent-Replayed': {
    description:
      '`true` when this is the answer kept for an earlier request with the same Idempotency-Key: nothing was changed again.',
    schema: { type: 'string', enum: ['true'] },
  },
} as const;

type HeaderName = keyof typeof headers;

const idempotencyKeyParameter = {
  in: 'header',
  name: 'Idempotency-Key',
  required: false,
  description:
    'Makes the change once: the same request with the same key within 24 hours gets the first answer back (with Idempotent-Replayed: true) once it succeeded; a refused request is not kept, so sending it again is decided afresh. 1 to 255 visible ASCII characters, e.g. a UUID.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

const rateLimitHeaders: HeaderName[] = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
const changes = new Set(['post', 'put', 'patch', 'delete']);

function refs(names: HeaderName[]): Record<string, { $ref: string }> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

/**
 * The headers of a failure of this status, shared by every operation that lists it (a response of
 * `components.responses`): the token budget (any call may be made with a token, and a refused one is
 * counted too), and `Retry-After` on a 429 and on the 409 of a key whose first request still runs. No
 * failure is kept for its key (plugins/idempotency.ts keeps answers below 400), so none is replayed.
 */
export function failureHeaders(status: number): Record<string, { $ref: string }> {
  const names: HeaderName[] = [...rateLimitHeaders];
  if (status === 429 || status === 409) names.push('Retry-After');
  return refs(names);
}

function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/**
 * Adds `Idempotency-Key` to each change a signed-in caller makes (not a public call, not a module that keeps
 * no answers), and to its successes `Idempotent-Replayed`; to the successes of each operation an API token
 * may call, its budget's `X-RateLimit-*`. Run after the failures are described (their headers are
 * `failureHeaders`).
 */
export function describeHeaders<T extends object>(generated: T, routes: RouteHeaderFacts[]): T {
  const document = generated as OpenApiObject;
  const ignoresKey = new Set(
    routes
      .filter((route) => route.idempotency === false)
      .map((route) => `${route.method.toLowerCase()} ${openApiPath(route.url)}`),
  );
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations) as [Method, OpenApiOperation][]) {
      const security = operation.security ?? document.security ?? [];
      const signedIn = security.some((scheme) => Object.keys(scheme).length > 0);
      const withToken = security.some((scheme) => 'apiToken' in scheme);
      const keyed = changes.has(method) && signedIn && !ignoresKey.has(`${method} ${path}`);
      if (keyed) operation.parameters = [...(operation.parameters ?? []), idempotencyKeyParameter];
      const names: HeaderName[] = [
        ...(withToken ? rateLimitHeaders : []),
        ...(keyed ? ['Idempotent-Replayed' as const] : []),
      ];
      if (names.length === 0) continue;
      for (const [status, answer] of Object.entries(operation.responses ?? {})) {
        const response = answer as { $ref?: string; headers?: Record<string, unknown> };
        if (!status.startsWith('2') || response.$ref) continue;
        response.headers = { ...response.headers, ...refs(names) };
      }
    }
  }
  document.components = { ...document.components, headers: { ...document.components?.headers, ...headers } };
  return generated;
}
