import { Readable } from 'node:stream';
import {
  entityId,
  successEnvelope,
  transactionExportQuerySchema,
  transactionListQuerySchema,
  transactionListResponseSchema,
  transactionSchema,
} from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../plugins/auth.js';
import type { LedgerService } from './ledger.service.js';

/** spec/02 §7 Transactions: the ledger, newest first, in the envelope with the spec's `transactions` key. */
export async function ledgerRoutes(app: FastifyInstance, options: { ledger: LedgerService }) {
  const { ledger } = options;
  app.addHook('onRequest', app.authenticate);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['transactions'];
  r.get(
    '/transactions/party/:partyId',
    {
      schema: {
        tags,
        summary: 'A party’s ledger',
        params: z.object({ partyId: entityId('Party not found.') }),
        querystring: transactionListQuerySchema,
        response: { 200: transactionListResponseSchema },
      },
    },
    async (request) => {
      const { transactions, operations, meta } = await ledger.forParty(
        requireAuth(request).user.id,
        request.params.partyId,
        request.query,
      );
      return { status: 'success' as const, data: { transactions, ...(operations && { operations }) }, meta };
    },
  );
  r.get(
    '/transactions/character/:characterId',
    {
      schema: {
        tags,
        summary: 'A character’s ledger',
        params: z.object({ characterId: entityId('Character not found.') }),
        querystring: transactionListQuerySchema,
        response: { 200: transactionListResponseSchema },
      },
    },
    async (request) => {
      const { transactions, operations, meta } = await ledger.forCharacter(
        requireAuth(request).user.id,
        request.params.characterId,
        request.query,
      );
      return { status: 'success' as const, data: { transactions, ...(operations && { operations }) }, meta };
    },
  );
  for (const [kind, param, what] of [
    ['party', 'partyId', 'Party'],
    ['character', 'characterId', 'Character'],
  ] as const) {
    r.get(
      `/transactions/${kind}/:${param}/export.csv`,
      {
        schema: {
          tags,
          summary: `Download a ${kind}’s ledger as CSV (streamed)`,
          params: z.object({ [param]: entityId(`${what} not found.`) }),
          querystring: transactionExportQuerySchema,
        },
      },
      async (request, reply) => {
        const id = (request.params as Record<string, string>)[param] ?? '';
        const userId = requireAuth(request).user.id;
        const lines =
          kind === 'party'
            ? await ledger.exportForParty(userId, id, request.query)
            : await ledger.exportForCharacter(userId, id, request.query);
        const date = new Date().toISOString().slice(0, 10);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="transactions-${id}-${date}.csv"`)
          .header('cache-control', 'no-store')
          .send(Readable.from(lines));
      },
    );
  }

  r.get(
    '/transactions/:id',
    {
      schema: {
        tags,
        summary: 'One ledger entry',
        params: z.object({ id: entityId('Transaction not found.') }),
        response: { 200: successEnvelope(transactionSchema) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await ledger.one(requireAuth(request).user.id, request.params.id),
    }),
  );
}
