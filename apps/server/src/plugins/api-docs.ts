import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

const apiDescription = `Inventory, parties, shops and loot for tabletop role-playing groups.

## Personal API tokens

Script your inventory with a personal API token. On a plan with API access (Hero or Legend), open
**Profile → API tokens**, create a token with a name, a scope and an expiry, and copy the secret: it is
shown once. Send it on every request:

    curl -H "Authorization: Bearer hvk_..." https://your-haversack.example/api/v1/characters

- **Scope** \`read\` answers GET and HEAD only; any other method is refused with 403. \`read_write\` may do
  what you may do in the web app.
- A token never reaches the admin area, never manages API tokens, and never changes the account itself
  (sign-in, sign-out, password, email, linked accounts, billing): those answer 403.
- An expired token answers 401 \`EXPIRED_TOKEN\`, a revoked one 401 \`REVOKED_TOKEN\`; if your plan no longer
  includes API access, 403 \`FEATURE_NOT_AVAILABLE\` until you upgrade again.
- Changes made with a token are marked as coming from the API in the party's activity and live notices
  ("{name} updated inventory via API").
- The real-time socket (/cable) does not accept API tokens.
- Revoke a token on the same profile page at any time; its last use is shown to the minute.
`;

/** OpenAPI generated from the routes' zod schemas, browsable at /api/docs. */
export const apiDocsPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
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
              description:
                'The access token of a signed-in session (POST /api/v1/auth/login), valid 15 minutes.',
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
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'api-docs' },
);
