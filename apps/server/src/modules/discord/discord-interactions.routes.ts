import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import { noSignIn } from '../../lib/openapi-security.js';
import type { DiscordInteractionsService } from './discord-interactions.service.js';
import { interactionSchema } from './discord-interactions.service.js';
import { discordPublicKey, isSignedByDiscord } from './discord-signature.js';

/**
 * POST /api/v1/discord/interactions: Discord's HTTP interactions endpoint (issue 16 §2). The signature
 * covers the exact bytes Discord sent, so this scope (its own encapsulated plugin) keeps JSON bodies raw.
 * A request that is not signed with the application's key is 401, as Discord's endpoint check expects.
 */
export async function discordInteractionsRoutes(
  app: FastifyInstance,
  options: { interactions: DiscordInteractionsService; publicKey: string | undefined; now: () => Date },
) {
  const key = options.publicKey ? discordPublicKey(options.publicKey) : undefined;
  // A signed interaction stays valid for INTERACTION_MAX_AGE_S: one captured on its way could be sent again
  // (another /give). Each interaction id is answered once within the rate limits' window, which is longer
  // than that age, across processes when the limits are counted in Redis.
  const interactionIds = new WeakMap<object, string>();
  const answeredOnce = app.limitByKey('discord-interaction', 1, (request) => interactionIds.get(request));
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/discord/interactions',
    {
      schema: {
        ...noSignIn,
        tags: ['discord'],
        summary: 'Discord slash commands (signed by Discord with Ed25519)',
        security: [],
      },
    },
    async (request, reply) => {
      if (!key) throw AppError.notFound('Discord commands are not configured on this server.');
      const raw = request.body;
      if (!Buffer.isBuffer(raw)) throw new AppError('UNAUTHORIZED', 'Invalid request signature.');
      const header = (name: string) => {
        const value = request.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      const signed = isSignedByDiscord(
        key,
        { signature: header('x-signature-ed25519'), timestamp: header('x-signature-timestamp') },
        raw,
        options.now(),
      );
      if (!signed) throw new AppError('UNAUTHORIZED', 'Invalid request signature.');
      let payload: unknown;
      try {
        payload = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new AppError('BAD_REQUEST', 'The interaction is not JSON.');
      }
      const interaction = interactionSchema.safeParse(payload);
      if (!interaction.success)
        throw new AppError('BAD_REQUEST', 'The interaction is not one Discord sends.');
      interactionIds.set(request, interaction.data.id);
      try {
        await answeredOnce.call(app, request, reply);
      } catch (error) {
        if (error instanceof AppError && error.code === 'RATE_LIMITED')
          throw new AppError('CONFLICT', 'This interaction was already answered.');
        throw error;
      }
      // Discord reads the bare interaction response, not Haversack's envelope.
      return options.interactions.handle(interaction.data);
    },
  );
}
