import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import {
  type ErrorCode,
  type ErrorEnvelope,
  type ErrorShape,
  errorCatalogue,
  type FieldError,
} from '@haversack/contracts';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/app-error.js';
import { isDatabaseUnavailable, isTransactionConflict } from '../lib/db-errors.js';
import { reasonOf } from '../lib/error-reason.js';
import { requestBodyCutOff } from '../lib/request-body-cut-off.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The spec keys this route's failures carry beside the envelope (see `withErrorShape`). */
    errorShape?: ErrorShape;
    /** It answers 204 with no content though it is no DELETE: the API document says so (api-docs-failures.ts). */
    noContent?: boolean;
  }
}

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

/**
 * The spec's own failure keys, added beside the envelope for the routes that declare them, so one handler
 * answers every failure of those routes alike (validation, authentication, rules, rate limits):
 * spec/02 §8 transfers "return success false with an errors list"; spec/01 §7 the forgot and reset
 * screens "read the failure text from a field named error in the response data".
 */
export function withErrorShape(envelope: ErrorEnvelope, shape: ErrorShape | undefined) {
  switch (shape) {
    case 'transfer': {
      // The specific reasons when there are some (per field), else the one message.
      const details = (envelope.error.details ?? []).map((d) => d.message);
      const errors = details.length > 0 ? [...new Set(details)] : [envelope.error.message];
      return { ...envelope, success: false as const, errors };
    }
    case 'password_recovery':
      // The screens show this one line in their banner: the first field's reason says most.
      return { ...envelope, data: { error: envelope.error.details?.[0]?.message ?? envelope.error.message } };
    default:
      return envelope;
  }
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
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return {
        code: 'BAD_REQUEST',
        message: 'The request body does not match its Content-Length.',
        status: 400,
      };
    case 'FST_ERR_BAD_URL':
      return { code: 'BAD_REQUEST', message: 'The address is not valid.', status: 400 };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return {
        code: 'BAD_REQUEST',
        message: `A part of the address is too long (at most ${MAX_PARAM_LENGTH} characters).`,
        status: 414,
      };
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

/** Fastify's default: longer path parameters never reach a route (see `frameworkErrors`). */
export const MAX_PARAM_LENGTH = 100;

function envelopeOf(error: FastifyError) {
  const known = fromFastifyError(error);
  if (known) return known;
  return {
    code: 'INTERNAL_SERVER_ERROR' as const,
    message: errorCatalogue.INTERNAL_SERVER_ERROR.message,
    status: 500,
  };
}

/**
 * Fastify's `frameworkErrors`: errors the router raises before any route or hook runs (a malformed
 * percent-encoding in the path, a path parameter over MAX_PARAM_LENGTH), answered in the envelope too.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const { code, message, status } = envelopeOf(error);
  if (status >= 500) request.log.error({ err: error }, 'framework error');
  return reply
    .status(status)
    .header('x-request-id', request.id)
    .header('x-content-type-options', 'nosniff')
    .send(errorEnvelope(code, message, status));
}

/** What a client hears when its request took longer than the request timeout (app.ts) to arrive. */
const requestTimedOut = 'The request took too long to arrive.';

/**
 * Fastify's `clientErrorHandler`: the HTTP parser refused the request (a bad Content-Length, a header too
 * large, a timeout), so no request exists and the answer is written on the socket, in the envelope.
 */
export function clientErrorHandler(this: FastifyInstance, error: ConnectionError, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, requestTimedOut]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'The request headers are too large.']
        : [400, 'The request is not valid HTTP.'];
  this.log.trace({ err: error }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify(errorEnvelope('BAD_REQUEST', message, status));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

function zodDetails(error: FastifyError): FieldError[] {
  if (!hasZodFastifySchemaValidationErrors(error)) return [];
  return error.validation.map((issue) => {
    const path = issue.instancePath.split('/').filter(Boolean).join('.');
    return { field: path || (error.validationContext ?? 'body'), message: issue.message ?? 'is invalid' };
  });
}

/** What a person reads when the database cannot be reached; the health check says the same. */
const databaseUnavailable = 'The database is not answering. Try again in a moment.';

/**
 * STYLE: one error handler. 4xx messages pass through in the envelope; anything else becomes the generic
 * 500 message, with the error and the request id in the log and never a stack trace in the answer.
 */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      // Errors raised before routing (a 404, a framework error) may come without a route config.
      const shape = request.routeOptions?.config?.errorShape;
      if (error instanceof AppError) {
        // A 503 is a state, not a fault of the code: the server closing (refused at once), billing not
        // configured, Discord not answering. One line without a stack; a 500 keeps its stack.
        if (error.status === 503)
          request.log.warn({ code: error.code, reason: error.message }, 'unavailable');
        else if (error.status >= 500) request.log.error({ err: error }, 'service error');
        for (const [name, value] of Object.entries(error.headers ?? {})) reply.header(name, value);
        return reply
          .status(error.status)
          .send(withErrorShape(errorEnvelope(error.code, error.message, error.status, error.details), shape));
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const status = errorCatalogue.VALIDATION_ERROR.status;
        return reply
          .status(status)
          .send(
            withErrorShape(
              errorEnvelope(
                'VALIDATION_ERROR',
                errorCatalogue.VALIDATION_ERROR.message,
                status,
                zodDetails(error),
              ),
              shape,
            ),
          );
      }
      const cutOff = requestBodyCutOff(error, request.raw);
      if (cutOff) {
        // The body never arrived whole and the socket is closed: nobody reads this answer, and neither the
        // code nor the database is at fault (the driver's lost connection has the same code, ECONNRESET).
        // Info, beside the request's own line: clients leaving mid-upload are ordinary, not an outage.
        // The status is what the log and the hooks see: 408 as the socket was told, else 400.
        const [status, message, line] =
          cutOff === 'timed_out'
            ? [408, requestTimedOut, 'request timed out before its body arrived']
            : [400, 'The request body did not arrive whole.', 'client aborted the request'];
        request.log.info({ reason: reasonOf(error) }, line);
        return reply
          .status(status)
          .send(withErrorShape(errorEnvelope('BAD_REQUEST', message, status), shape));
      }
      if (isTransactionConflict(error)) {
        // Two transactions waited on each other and PostgreSQL ended this one: nothing was written, and
        // the same request may succeed now. Locks are taken in one order to make this rare, not impossible.
        request.log.warn({ err: error }, 'transaction conflict');
        const { status, message } = errorCatalogue.CONFLICT;
        return reply.status(status).send(withErrorShape(errorEnvelope('CONFLICT', message, status), shape));
      }
      if (isDatabaseUnavailable(error)) {
        // The database is down or the connection was lost: the health check says 503 too, and a proxy or
        // a client may try again later; the reason is logged once per request, without a stack.
        request.log.error({ reason: reasonOf(error) }, 'database unavailable');
        const { status } = errorCatalogue.SERVICE_UNAVAILABLE;
        return reply
          .status(status)
          .send(withErrorShape(errorEnvelope('SERVICE_UNAVAILABLE', databaseUnavailable, status), shape));
      }
      const { code, message, status } = envelopeOf(error);
      if (status >= 500) request.log.error({ err: error }, 'unhandled error');
      return reply.status(status).send(withErrorShape(errorEnvelope(code, message, status), shape));
    });
  },
  { name: 'error-handler' },
);
