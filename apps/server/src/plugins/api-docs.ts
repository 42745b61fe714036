import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { MAX_API_TOKENS } from '@haversack/contracts';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describeFailures } from './api-docs-failures.js';
import { describeHeaders } from './api-docs-headers.js';
import { isSessionOnlyRoute } from './api-token-access.js';

const apiDescription = `Inventory, parties, shops and loot for tabletop role-playing groups.

## Personal API tokens

Script your inventory with a personal API token. On a plan with API access (Hero or Legend), open
**Profile → API tokens**, create a token with a name, a scope and an expiry, and copy the secret: it is
shown once. Send it on every request:

    curl -H "Authorization: Bearer hvk_..." https://your-haversack.example/api/v1/characters

- **Scope** \`read\` answers GET and HEAD, and the two POSTs that only ask about your plan
  (\`POST /api/v1/subscription/check_feature\` and \`POST /api/v1/subscription/check_limit\`); any other
  method is refused with 403. \`read_write\` may do what you may do in the web app.
- Changing or resetting the account's password, or undoing an email change, revokes every token
  (401 \`REVOKED_TOKEN\`): make a new one afterwards.
- The public calls (sign-up, sign-in, password recovery) need no token at all.
- **Rate limit**: 600 calls a minute per user by default (\`X-RateLimit-Limit\` tells this server's),
  counted across all of that user's tokens; the web app's sessions do not spend it. Every answer to a
  call made with a token carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and
  \`X-RateLimit-Reset\` (seconds until the minute's budget renews). Past the budget the answer is 429
  \`RATE_LIMITED\` with \`Retry-After\` (seconds): wait that long, then go on.
- A token never reaches the admin area, never manages API tokens, and never changes the account itself
  (sign-in, sign-out, signed-in devices, password, email, linked accounts, billing, data export, deleting
  the account), and never starts or ends a sponsorship (\`POST /api/v1/patronages\`, \`DELETE
  /api/v1/patronages/{id}\`: it hands out a paid plan, as billing does): those answer 403, and their
  operations below offer only a session's access token.
- An expired token answers 401 \`EXPIRED_TOKEN\`, a revoked one 401 \`REVOKED_TOKEN\`; if your plan no longer
  includes API access, 403 \`FEATURE_NOT_AVAILABLE\` until you upgrade again.
- Changes made with a token are marked as coming from the API in the party's activity and live notices
  ("{name} updated inventory via API").
- The real-time socket (/cable) does not accept API tokens.
- Revoke a token on the same profile page at any time; its last use is shown to the minute. A user may
  hold at most ${MAX_API_TOKENS} tokens that are not revoked (expired ones count until revoked): past that,
  creating one is 403 \`LIMIT_EXCEEDED\`.
- **Retrying safely**: send an \`Idempotency-Key\` header (1 to 255 visible ASCII characters, e.g. a UUID)
  with a POST, PUT, PATCH or DELETE. The change is made once; the same request with the same key within 24
  hours gets the first answer back with \`Idempotent-Replayed: true\` and changes nothing. Another request
  with a used key is 422. A copy sent while the first is still being handled gets 409 \`CONFLICT\` with
  \`Retry-After: 1\` if it is checked before the first has answered (send it again to get that answer), or
  the first answer replayed if it is checked after: either way the change is made once. Only answers below
  400 are kept: a refusal (4xx) or a failure (5xx) changed nothing, so the request may be sent again with
  its key (after an upgrade, say). Without a key, a change whose answer never arrived may have been made: read the ledger (\`GET /api/v1/transactions/party/{partyId}\` or
  \`…/character/{characterId}\`) before sending it again. Moves, purchases and takes never half-happen: each
  is made whole or not at all.

## Answers and failures

- A success is \`{ "status": "success", "data": … }\` (lists add \`meta\` with the page). A failure is
  \`{ "status": "error", "error": { "type", "code", "message", "details"?, "status" } }\`, with
  \`error.status\` equal to the HTTP status; \`details\` names the fields at fault. Each operation lists the
  statuses it can answer, and each status the codes it carries. Transfers add \`success: false\` and
  \`errors\` (the reasons as a list); password recovery adds \`data.error\`.
- **Money**: prices and amounts named \`…_cp\` are copper (1 gp = 100 cp). A ledger row's \`amount\` (copper)
  is set only where money changed hands (purchase, sale, currency conversion); moves, additions and
  adjustments of coins record their \`quantity\` of the coin item. \`totalValue\` and wealth figures are whole
  gold pieces, rounded; sum \`value_cp × quantity\` for exact totals. A sum over many stacks (a wealth, a
  container's, a loot's or a shared page's total) that would pass 9,007,199,254,740,991 (2^53 − 1, the
  largest integer JSON readers hold exactly) is reported as that number: read it as "at least".
- **Browsers**: the API sends no CORS headers, so a web page on another site cannot call it; call it from a
  script or a server.
`;

const swaggerOptions: FastifyDynamicSwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'Haversack API',
      description: apiDescription,
      version: '1.0.0',
    },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The access token of a signed-in session (POST /api/v1/auth/login), valid 15 minutes.',
        },
        apiToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'hvk_...',
          description:
            'A personal API token created on the profile page (plans with API access). Send it as `Authorization: Bearer hvk_...`.',
        },
      },
    },
    security: [{ bearerAuth: [] }, { apiToken: [] }],
  },
  transform: jsonSchemaTransform,
};

const docsPrefix = '/api/docs';

/** What the document is made of: a route as the app declared it, without its handler and hooks. */
type DocumentedRoute = Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config' | 'constraints'>;

export interface ApiDocsOptions {
  /** The app's own router options, so that the document's routes match as the app's do. */
  routerOptions: FastifyServerOptions['routerOptions'];
}

/** Headers of the documentation app's answer that belong to its own connection, not to the app's. */
const ownHeaders = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

/**
 * OpenAPI generated from the routes' zod schemas, browsable at /api/docs, made on its first request.
 *
 * Loading @fastify/swagger, @fastify/swagger-ui and what they bring (yaml, a second @fastify/static) was
 * about 6 % of every restart's time and CPU (issue 13 §6; bench/README.md "Start on the embedded database"),
 * for a page few requests ever reach. So the app only notes each route it declares, as @fastify/swagger's own
 * hook would (HEAD routes left out), and the first request under /api/docs builds a Fastify instance of
 * the documentation's own: the same two plugins, registered as before, and every noted route declared again
 * with its schema and no handler of its own. Requests under /api/docs are answered by that instance
 * (`inject`), through the app's own hooks (security headers, compression, logging); a path it does not know
 * is the app's own 404.
 */
export const apiDocsPlugin = fp<ApiDocsOptions>(
  async (app, { routerOptions }) => {
    const routes: DocumentedRoute[] = [];
    app.addHook('onRoute', (route) => {
      if (route.method === 'HEAD' || route.url.startsWith(docsPrefix)) return;
      const { method, url, schema, constraints } = route;
      // Read when the document is made: a module's own onRoute hook runs after this one and may still set
      // its config (`keepNoAnswers`).
      routes.push({
        method,
        url,
        schema,
        constraints,
        get config() {
          return route.config;
        },
      });
    });

    let documentation: Promise<FastifyInstance> | undefined;
    const documentationApp = () => {
      documentation ??= documentationFor(routes, routerOptions).catch((error: unknown) => {
        documentation = undefined;
        throw error;
      });
      return documentation;
    };
    app.addHook('onClose', async () => {
      const built = await documentation?.catch(() => undefined);
      await built?.close();
    });

    const answer = async (request: FastifyRequest, reply: FastifyReply) => {
      const {
        'accept-encoding': _encoding,
        host: _host,
        connection: _connection,
        ...headers
      } = request.headers;
      // A HEAD request runs this GET handler too, and Fastify leaves the body out.
      const answered = await (await documentationApp()).inject({ method: 'GET', url: request.url, headers });
      if (answered.statusCode === 404) return reply.callNotFound();
      reply.code(answered.statusCode);
      for (const [name, value] of Object.entries(answered.headers)) {
        if (value !== undefined && !ownHeaders.has(name)) reply.header(name, value);
      }
      // A redirect has no body, and no content type to give it.
      return answered.rawPayload.length > 0 ? reply.send(answered.rawPayload) : reply.send();
    };
    app.get(docsPrefix, answer);
    app.get(`${docsPrefix}/*`, answer);
  },
  { name: 'api-docs' },
);

async function documentationFor(
  routes: DocumentedRoute[],
  routerOptions: ApiDocsOptions['routerOptions'],
): Promise<FastifyInstance> {
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ]);
  const docs = Fastify({ logger: false, ...(routerOptions ? { routerOptions } : {}) });
  docs.setValidatorCompiler(validatorCompiler);
  docs.setSerializerCompiler(serializerCompiler);
  const facts = routes.flatMap((route) =>
    [route.method].flat().map((method) => ({
      method,
      url: route.url,
      errorShape: route.config?.errorShape,
      sessionOnly: isSessionOnlyRoute(method, route.url, route.config),
      idempotency: route.config?.idempotency,
      noContent: route.config?.noContent,
    })),
  );
  await docs.register(swagger, {
    ...swaggerOptions,
    transformObject: (document) =>
      'openapiObject' in document
        ? describeHeaders(describeFailures(document.openapiObject, facts), facts)
        : document.swaggerObject,
  });
  // No policy of the page's own (`staticCSP`): the app's applies (plugins/security-headers.ts). swagger-ui's
  // asks browsers to upgrade every request to https, which left the page blank on a server reached over
  // plain http on a LAN, and refuses the inline styles swagger-ui sets as it draws.
  await docs.register(swaggerUi, { routePrefix: docsPrefix });
  // Only a path under /api/docs that is none of the documentation's own reaches a described route (the web
  // app's catch-all): the app answers it with its own 404.
  const notHere = (_request: FastifyRequest, reply: FastifyReply) => reply.callNotFound();
  for (const route of routes) docs.route({ ...route, handler: notHere });
  await docs.ready();
  return docs;
}
