import { type ErrorCode, type ErrorEnvelope, errorCatalogue, type FieldError } from '@haversack/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/app-error.js';

export function errorEnvelope(
  code: ErrorCode,
  message: string,
  status: number,
  details?: FieldError[],
): ErrorEnvelope {
  return {
    status: 'error',
    error: {
      type: errorCatalogue[code].type,
      code,
      message,
      ...(details && details.length > 0 ? { details } : {}),
      status,
    },
  };
}

/** Fastify's own 4xx errors (parsers, limits) carry codes; give each a message a person understands. */
function fromFastifyError(
  error: FastifyError,
): { code: ErrorCode; message: string; status: number } | undefined {
  const status = error.statusCode ?? 500;
  if (status >= 500) return undefined;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large.', status: 413 };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { code: 'BAD_REQUEST', message: 'Unsupported content type. Send JSON.', status: 415 };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return {
        code: 'BAD_REQUEST',
        message: 'The request body is empty but JSON was declared.',
        status: 400,
      };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { code: 'BAD_REQUEST', message: 'The request body is not valid JSON.', status: 400 };
    default:
      break;
  }
  if (error instanceof SyntaxError || error.name === 'SyntaxError') {
    return { code: 'BAD_REQUEST', message: 'The request body is not valid JSON.', status: 400 };
  }
  if (status === 404)
    return { code: 'RESOURCE_NOT_FOUND', message: errorCatalogue.RESOURCE_NOT_FOUND.message, status };
  if (status === 413) return { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large.', status };
  if (status === 429) return { code: 'RATE_LIMITED', message: errorCatalogue.RATE_LIMITED.message, status };
  if (status === 401) return { code: 'UNAUTHORIZED', message: errorCatalogue.UNAUTHORIZED.message, status };
  if (status === 403) return { code: 'FORBIDDEN', message: errorCatalogue.FORBIDDEN.message, status };
  return { code: 'BAD_REQUEST', message: errorCatalogue.BAD_REQUEST.message, status };
}

function zodDetails(error: FastifyError): FieldError[] {
  if (!hasZodFastifySchemaValidationErrors(error)) return [];
  return error.validation.map((issue) => {
    const path = issue.instancePath.split('/').filter(Boolean).join('.');
    return { field: path || (error.validationContext ?? 'body'), message: issue.message ?? 'is invalid' };
  });
}

/**
 * STYLE: one error handler. 4xx messages pass through in the envelope; anything else becomes the generic
 * 500 message, with the error and the request id in the log and never a stack trace in the answer.
 */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      if (error instanceof AppError) {
        if (error.status >= 500) request.log.error({ err: error }, 'service error');
        for (const [name, value] of Object.entries(error.headers ?? {})) reply.header(name, value);
        return reply
          .status(error.status)
          .send(errorEnvelope(error.code, error.message, error.status, error.details));
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const status = errorCatalogue.VALIDATION_ERROR.status;
        return reply
          .status(status)
          .send(
            errorEnvelope(
              'VALIDATION_ERROR',
              errorCatalogue.VALIDATION_ERROR.message,
              status,
              zodDetails(error),
            ),
          );
      }
      const known = fromFastifyError(error);
      if (known) {
        return reply.status(known.status).send(errorEnvelope(known.code, known.message, known.status));
      }
      request.log.error({ err: error }, 'unhandled error');
      const status = 500;
      return reply
        .status(status)
        .send(errorEnvelope('INTERNAL_SERVER_ERROR', errorCatalogue.INTERNAL_SERVER_ERROR.message, status));
    });
  },
  { name: 'error-handler' },
);
