import {
  type ErrorShape,
  errorCatalogue,
  errorCodes,
  errorEnvelopeSchema,
  passwordRecoveryErrorEnvelopeSchema,
  transferErrorEnvelopeSchema,
} from '@haversack/contracts';
import { z } from 'zod';
import { failureHeaders } from './api-docs-headers.js';

/**
 * The failures of the API document (DESIGN §3): every operation lists the statuses it can answer with the
 * error envelope, each a reference to one response of `components.responses` that names the codes of that
 * status. Routes with a spec shape of their own (`config.errorShape`: transfers, password recovery) refer to
 * responses of that shape. The fuzz test of the document sends every operation hostile input and fails on a
 * status its operation does not list.
 */

type Method = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete' | 'options';

interface OpenApiOperation {
  summary?: string;
  responses?: Record<string, unknown>;
  [key: string]: unknown;
}

interface OpenApiObject {
  paths?: Record<string, Partial<Record<Method, OpenApiOperation>>>;
  components?: { schemas?: Record<string, unknown>; responses?: Record<string, unknown> };
  [key: string]: unknown;
}

/** What the document needs to know of a route beyond its schema. */
export interface RouteFailureFacts {
  method: string;
  /** Fastify's form, `/api/v1/parties/:id`. */
  url: string;
  errorShape?: ErrorShape | undefined;
  /** No API token may call it (plugins/api-token-access.ts): only a session's access token is offered. */
  sessionOnly?: boolean;
  /** It answers 204 with no content, whatever its method (`config: { noContent: true }`). */
  noContent?: boolean | undefined;
}

/** Statuses a request can meet whatever it asks: its input, its sign-in, its limits, the server. */
const everyCall = [400, 401, 403, 404, 422, 429, 500, 503];
/** A path parameter longer than the router accepts. */
const withPathParameters = [414];
/** What a change can also meet: the state it changes, and the body it sends (a DELETE may send one). */
const changes = [409, 413, 415];

/** The codes of each status that are not the catalogue's own (Fastify's refusals, mapped in error-handler). */
const otherCodes: Record<number, string> = {
  400: 'BAD_REQUEST (not valid JSON, a bad address)',
  414: 'BAD_REQUEST (a path parameter too long)',
  415: 'BAD_REQUEST (send JSON: Content-Type application/json)',
};

function statusDescription(status: number): string {
  const codes = errorCodes.filter((code) => errorCatalogue[code].status === status);
  const listed = [
    ...codes,
    ...(otherCodes[status] && !codes.includes('BAD_REQUEST') ? [otherCodes[status]] : []),
  ];
  return `Error envelope; error.code is ${listed.join(', ')}`;
}

const shapes: Record<ErrorShape | 'envelope', { schema: z.ZodType; name: string; note: string }> = {
  envelope: { schema: errorEnvelopeSchema, name: 'Error', note: '' },
  transfer: {
    schema: transferErrorEnvelopeSchema,
    name: 'TransferError',
    note: ' (with success false and the reasons in errors)',
  },
  password_recovery: {
    schema: passwordRecoveryErrorEnvelopeSchema,
    name: 'PasswordRecoveryError',
    note: ' (with the reason in data.error)',
  },
};

function envelopeJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'output' }) as unknown as {
    $schema?: string;
    properties: { error: { properties: Record<string, unknown> } };
  };
  delete json.$schema;
  json.properties.error.properties.code = { type: 'string', enum: errorCodes };
  json.properties.error.properties.status = { type: 'integer', minimum: 400, maximum: 599 };
  return json;
}

/** What a failure of this status looks like, with its first code: the browsable page's example. */
function exampleOf(shape: ErrorShape | 'envelope', status: number) {
  const code = errorCodes.find((candidate) => errorCatalogue[candidate].status === status) ?? 'BAD_REQUEST';
  const { type, message } = errorCatalogue[code];
  const envelope = { status: 'error', error: { type, code, message, status } };
  if (shape === 'transfer') return { ...envelope, success: false, errors: [message] };
  if (shape === 'password_recovery') return { ...envelope, data: { error: message } };
  return envelope;
}

/**
 * zod's integers carry JavaScript's safe-integer bounds, which the browsable page then offers as every
 * example ("quantity": -9007199254740991): they say nothing a reader needs, so they are left out.
 */
function withoutSafeIntegerBounds(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) withoutSafeIntegerBounds(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (record.minimum === Number.MIN_SAFE_INTEGER) delete record.minimum;
  if (record.maximum === Number.MAX_SAFE_INTEGER) delete record.maximum;
  for (const value of Object.values(record)) withoutSafeIntegerBounds(value);
}

function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function statusesOf(method: Method, path: string): number[] {
  const own = method === 'get' || method === 'head' ? [] : changes;
  const parameters = path.includes('{') ? withPathParameters : [];
  return [...everyCall, ...parameters, ...own].sort((a, b) => a - b);
}

const successWords: Record<string, string> = {
  '200': 'Done',
  '201': 'Created',
  '202': 'Accepted: the work goes on after the answer',
};

/**
 * Fastify's generator describes every success as "Default Response", which the browsable page shows above
 * each example: the operation's summary says what the answer holds.
 */
function describeSuccesses(operation: OpenApiOperation): void {
  for (const [status, answer] of Object.entries(operation.responses ?? {})) {
    const response = answer as { description?: string };
    if (response.description !== 'Default Response') continue;
    const word = successWords[status] ?? 'Done';
    response.description = operation.summary ? `${word}: ${operation.summary}` : word;
  }
}

/**
 * A failure a route declares as a bare string is plain text, not JSON: the envelope is always an object,
 * and a string is declared only where a protocol of its own asks for text (oEmbed's 501 for format=xml).
 */
function plainTextFailures(answers: Record<string, unknown>): void {
  for (const [status, answer] of Object.entries(answers)) {
    const response = answer as { content?: Record<string, { schema?: { type?: unknown } }> };
    const json = response.content?.['application/json'];
    if (Number(status) < 400 || json?.schema?.type !== 'string') continue;
    response.content = { 'text/plain': json };
  }
}

/**
 * Adds the failures to the document, and says what the routes without a response schema answer, for which
 * Fastify's generator writes "200 Default Response": a DELETE answers 204 (and a route whose config says
 * `noContent`), a CSV export text/csv.
 */
export function describeFailures<T extends object>(generated: T, routes: RouteFailureFacts[]): T {
  const document = generated as OpenApiObject;
  const shapeOf = new Map(
    routes.map((route) => [`${route.method.toLowerCase()} ${openApiPath(route.url)}`, route.errorShape]),
  );
  const sessionOnly = new Set(
    routes
      .filter((route) => route.sessionOnly)
      .map((route) => `${route.method.toLowerCase()} ${openApiPath(route.url)}`),
  );
  const noContent = new Set(
    routes
      .filter((route) => route.noContent)
      .map((route) => `${route.method.toLowerCase()} ${openApiPath(route.url)}`),
  );
  const schemas: Record<string, unknown> = {};
  const responses: Record<string, unknown> = {};
  const responseFor = (shape: ErrorShape | 'envelope', status: number) => {
    const { schema, name, note } = shapes[shape];
    schemas[name] ??= envelopeJsonSchema(schema);
    const key = `${name}${status}`;
    responses[key] ??= {
      description: `${statusDescription(status)}${note}`,
      headers: failureHeaders(status),
      content: {
        'application/json': {
          schema: { $ref: `#/components/schemas/${name}` },
          example: exampleOf(shape, status),
        },
      },
    };
    return { $ref: `#/components/responses/${key}` };
  };

  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations) as [Method, OpenApiOperation][]) {
      const answers = operation.responses ?? {};
      const plain = answers['200'] as { description?: string; content?: unknown } | undefined;
      const answersNothing = method === 'delete' || noContent.has(`${method} ${path}`);
      if (answersNothing && Object.keys(answers).length === 1 && plain && !plain.content) {
        delete answers['200'];
        answers['204'] = { description: 'Done; no content' };
      }
      if (path.endsWith('.csv') && plain && !plain.content) {
        answers['200'] = {
          description: 'The rows as CSV (the ledger’s columns, then Source), newest first',
          content: { 'text/csv': { schema: { type: 'string' } } },
        };
      }
      plainTextFailures(answers);
      describeSuccesses(operation);
      // A call that states its own security (public, sign-in optional) keeps it.
      if (sessionOnly.has(`${method} ${path}`) && operation.security === undefined)
        operation.security = [{ bearerAuth: [] }];
      const shape = shapeOf.get(`${method} ${path}`) ?? 'envelope';
      for (const status of statusesOf(method, path)) answers[String(status)] ??= responseFor(shape, status);
      operation.responses = answers;
    }
  }
  withoutSafeIntegerBounds(document.paths);
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...schemas },
    responses: { ...document.components?.responses, ...responses },
  };
  return generated;
}
