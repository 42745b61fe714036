import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
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
        description: [
          "Discord's HTTP interactions endpoint, called by Discord only. The body is the interaction as",
          'Discord sends it (JSON), signed over the timestamp and the exact bytes of the body with the',
          "application's Ed25519 key (`DISCORD_PUBLIC_KEY`).",
          '',
          '200 answers in Discord\'s own interaction response format, not in this API\'s envelope: `{"type":1}`',
          'to a PING, `{"type":4,"data":{"content":…}}` to a command. 401: a missing or wrong signature,',
          'or a timestamp more than 5 minutes away. 409: an interaction id already answered (a replay, after a',
          'restart too). 400: a body that is not an interaction. 404: the server has no `DISCORD_PUBLIC_KEY`.',
        ].join('\n'),
        // Documented, and optional here: a request without them is refused as unsigned (401), as Discord's
        // endpoint check expects, not as invalid input.
        headers: z.looseObject({
          'x-signature-ed25519': z.string().optional().describe('Hex Ed25519 signature of timestamp + body'),
          'x-signature-timestamp': z.string().optional().describe('Unix seconds, signed with the body'),
        }),
        security: [],
      },
    },
    async (request) => {
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
      if (!(await options.interactions.claim(interaction.data.id)))
        throw new AppError('CONFLICT', 'This interaction was already answered.');
      // Discord reads the bare interaction response, not Haversack's envelope.
      return options.interactions.handle(interaction.data);
    },
  );
}
