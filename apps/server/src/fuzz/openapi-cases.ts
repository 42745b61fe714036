/**
 * Requests generated from the OpenAPI document for the fuzz test (openapi-fuzz.test.ts): for every
 * operation, a plausible request built from its schemas, then the same request with one part made hostile
 * at a time (each path parameter, each query parameter, each body field at any depth, the body as a whole
 * and its content type). Deterministic: every choice comes from a seeded generator.
 */

export interface OpenApiSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  items?: OpenApiSchema;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  anyOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
  allOf?: OpenApiSchema[];
}

export interface OpenApiParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: OpenApiSchema;
}

export interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema?: OpenApiSchema }> };
  responses?: Record<string, unknown>;
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  security?: Record<string, string[]>[];
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The OpenAPI path, `/api/v1/parties/{id}`. */
  path: string;
  parameters: OpenApiParameter[];
  body: OpenApiSchema | undefined;
  /** The statuses the document lists for it ("204", "4XX"...). */
  statuses: string[];
  /** Whether the document says it needs a sign-in: a security requirement, none of them empty. */
  needsSignIn: boolean;
}

export interface FuzzRequest {
  label: string;
  method: Operation['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** Values a valid request uses: ids of real rows, and plausible text for named fields. */
export interface Samples {
  /** A real id for a path parameter, by its name and the path segment before it. */
  pathId(name: string, previousSegment: string): string;
  /** A value for a named field (body or query) whose schema alone is not enough, or undefined. */
  field(name: string, schema: OpenApiSchema): unknown;
  /**
   * The whole body of the valid request, when one built field by field cannot succeed: optional fields
   * that exclude each other, ids that must belong together. Undefined: built from the schema.
   */
  body?(): unknown;
}

// ---------------------------------------------------------------------------------------------------
// Determinism
// ---------------------------------------------------------------------------------------------------

/** mulberry32: small, fast and good enough to pick test values reproducibly. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pick<T>(random: () => number, values: readonly T[], count: number): T[] {
  const pool = [...values];
  const chosen: T[] = [];
  while (chosen.length < count && pool.length > 0) {
    const [value] = pool.splice(Math.floor(random() * pool.length), 1);
    chosen.push(value as T);
  }
  return chosen;
}

// ---------------------------------------------------------------------------------------------------
// Hostile values
// ---------------------------------------------------------------------------------------------------

/** JSON text spliced into a body as is: numbers JSON.stringify cannot write, nesting past every cap. */
class RawJson {
  constructor(
    readonly json: string,
    readonly name: string,
  ) {}
}

const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

export interface HostileValue {
  name: string;
  value: unknown;
}

const hostile = (name: string, value: unknown): HostileValue => ({ name, value });

/** Sent for every field and parameter. */
const alwaysSent: HostileValue[] = [
  hostile('NUL', 'ab\u0000cd'),
  hostile('lone surrogate', '\ud800'),
  hostile('not a uuid', 'not-a-uuid'),
  hostile('101 characters', 'a'.repeat(101)),
  hostile('2^31', 2 ** 31),
  hostile('2^53', 2 ** 53),
  hostile('negative', -1),
  hostile('fractional', 1.5),
  hostile('null', null),
  hostile('array', ['a', 1]),
];

/** Sent too for fields that hold objects or any JSON (metadata, instance_data, check_feature's fields). */
const sentToObjects: HostileValue[] = [
  hostile('deep object (20)', new RawJson(deepObject(20), 'deep object (20)')),
  hostile('object with bad text', { a: '\u0000', b: ['x\udfff'], '\ud800': 1 }),
];

/** A seeded one of these is sent for each field too. */
const sometimesSent: HostileValue[] = [
  hostile('NUL alone', '\u0000'),
  hostile('lone low surrogate', 'x\udfffy'),
  hostile('reversed surrogates', '\udc00\ud800'),
  hostile('object', { a: 'b' }),
  hostile('boolean', true),
  hostile('deep object (20)', new RawJson(deepObject(20), 'deep object (20)')),
  hostile('deep array (20000)', new RawJson(deepArray(20_000), 'deep array (20000)')),
  hostile('empty', ''),
  hostile('spaces', '   '),
  hostile('10,000 characters', 'x'.repeat(10_000)),
  hostile('emoji', '🐉🗡️'),
  hostile('right-to-left override', '\u202egp'),
  hostile('SQL', "' OR '1'='1' --"),
  hostile('percent NUL', '%00'),
  hostile('nil uuid', '00000000-0000-0000-0000-000000000000'),
  hostile('unknown uuid', '3f2b8c1e-9a4d-4e7f-8b6a-1c2d3e4f5a6b'),
  hostile('uuid with NUL', '3f2b8c1e-9a4d-4e7f-8b6a-1c2d3e4f5a6b\u0000'),
  hostile('-2^31', -(2 ** 31)),
  hostile('2^31 - 1', 2 ** 31 - 1),
  hostile('2^63', 2 ** 63),
  hostile('2^53 + 2', 2 ** 53 + 2),
  hostile('-0.5', -0.5),
  hostile('zero', 0),
  hostile('1e308', 1e308),
  hostile('smallest number', Number.MIN_VALUE),
  hostile('1e400', new RawJson('1e400', '1e400')),
  hostile('-1e400', new RawJson('-1e400', '-1e400')),
  hostile('30 digits', new RawJson('123456789012345678901234567890', '30 digits')),
  hostile('false', false),
  hostile('empty array', []),
  hostile('empty object', {}),
  hostile(
    '10,000 items',
    Array.from({ length: 10_000 }, (_, index) => index),
  ),
  hostile('numeric string', '42'),
  hostile('boolean string', 'true'),
  hostile('__proto__ object', new RawJson('{"__proto__":{"admin":true}}', '__proto__ object')),
];

/** Path parameters are text in a URL: their hostile forms, already encoded. Always sent: */
const alwaysInPaths: string[] = [
  '%00',
  '%ED%A0%80', // a lone surrogate in UTF-8 (not valid UTF-8)
  '%ZZ', // a malformed escape
  'not-a-uuid',
  'a'.repeat(101),
];
/** and a seeded couple of these. */
const sometimesInPaths: string[] = [
  'a%00b',
  '%C0%80', // an overlong NUL
  'a'.repeat(2_000),
  '00000000-0000-0000-0000-000000000000',
  '3f2b8c1e-9a4d-4e7f-8b6a-1c2d3e4f5a6b',
  '3F2B8C1E-9A4D-4E7F-8B6A-1C2D3E4F5A6B',
  '%27%20OR%201%3D1',
  '..',
  '-1',
  '2147483648',
  '1.5',
];

/** Query values are text too; lone surrogates cannot be percent-encoded, so they are sent as bad UTF-8. */
function queryForms(value: unknown): string[] | undefined {
  if (value instanceof RawJson) return [encodeURIComponent(value.json)];
  if (value === null) return [''];
  if (Array.isArray(value)) return value.flatMap((item) => queryForms(item) ?? []);
  if (typeof value === 'object') return undefined;
  try {
    return [encodeURIComponent(String(value))];
  } catch {
    return ['%ED%A0%80'];
  }
}

// ---------------------------------------------------------------------------------------------------
// Valid requests from schemas
// ---------------------------------------------------------------------------------------------------

function typesOf(schema: OpenApiSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type ? [schema.type] : [];
}

/** The first alternative of a union that is not `null`. */
function concrete(schema: OpenApiSchema): OpenApiSchema {
  const options = schema.anyOf ?? schema.oneOf;
  if (options) {
    const chosen = options.find((option) => !typesOf(option).includes('null')) ?? options[0];
    return chosen ? concrete(chosen) : schema;
  }
  if (schema.allOf?.[0]) return concrete(schema.allOf[0]);
  return schema;
}

/** A plausible value for a schema, preferring what the samples know about the field's name. */
export function sampleValue(schema: OpenApiSchema, name: string, samples: Samples): unknown {
  const known = samples.field(name, concrete(schema));
  if (known !== undefined) return known;
  if (schema.default !== undefined) return schema.default;
  const shape = concrete(schema);
  if (shape.const !== undefined) return shape.const;
  if (shape.enum && shape.enum.length > 0) return shape.enum[0];
  const type = typesOf(shape)[0];
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(shape.properties ?? {}))
        value[key] = sampleValue(property, key, samples);
      return value;
    }
    case 'array':
      return shape.items ? [sampleValue(shape.items, name, samples)] : [];
    case 'integer':
    case 'number':
      return shape.minimum ?? 1;
    case 'boolean':
      return false;
    case 'string':
      return 'x'.repeat(Math.max(shape.minLength ?? 0, 3));
    default:
      return 'x';
  }
}

/** Every field of a body schema, as paths: `['character', 'name']`, at any depth. */
function fieldPaths(
  schema: OpenApiSchema,
  prefix: string[] = [],
): { path: string[]; object: boolean; schema: OpenApiSchema }[] {
  const shape = concrete(schema);
  const paths: { path: string[]; object: boolean; schema: OpenApiSchema }[] = [];
  for (const [key, property] of Object.entries(shape.properties ?? {})) {
    const path = [...prefix, key];
    const isObject = typesOf(concrete(property)).includes('object');
    paths.push({ path, object: isObject, schema: property });
    if (isObject) paths.push(...fieldPaths(property, path));
  }
  return paths;
}

function withValueAt(body: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  let target: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    const next = target[key];
    if (!next || typeof next !== 'object' || Array.isArray(next)) target[key] = {};
    target = target[key] as Record<string, unknown>;
  }
  target[path.at(-1) as string] = value;
  return copy;
}

/** JSON text with the RawJson values spliced in where they stand. */
function serialise(body: unknown): string {
  const raws: RawJson[] = [];
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (value instanceof RawJson) {
      raws.push(value);
      return `\u0001raw${raws.length - 1}\u0001`;
    }
    return value;
  });
  return text.replace(
    /"\\u0001raw(\d+)\\u0001"/g,
    (_match, index: string) => raws[Number(index)]?.json ?? '',
  );
}

// ---------------------------------------------------------------------------------------------------
// Cases
// ---------------------------------------------------------------------------------------------------

function needsSignIn(security: Record<string, string[]>[]): boolean {
  return security.length > 0 && security.every((requirement) => Object.keys(requirement).length > 0);
}

/** Whether the document lists this status for the operation, itself or by its range ("4XX"). */
export function documents(operation: Operation, status: number): boolean {
  const code = String(status);
  return operation.statuses.some((listed) => listed === code || listed === `${code[0]}XX`);
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const upper = method.toUpperCase();
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(upper)) continue;
      operations.push({
        method: upper as Operation['method'],
        path,
        parameters: operation.parameters ?? [],
        body: operation.requestBody?.content['application/json']?.schema,
        statuses: Object.keys(operation.responses ?? {}),
        needsSignIn: needsSignIn(operation.security ?? document.security ?? []),
      });
    }
  }
  return operations;
}

interface Parts {
  pathValues: Record<string, string>;
  query: Record<string, string[]>;
  body: unknown;
}

function urlOf(operation: Operation, parts: Parts): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => parts.pathValues[name] ?? '');
  const query = Object.entries(parts.query).flatMap(([key, values]) =>
    values.map((value) => `${encodeURIComponent(key)}=${value}`),
  );
  return query.length > 0 ? `${path}?${query.join('&')}` : path;
}

/** The operation's request with valid-looking values everywhere. */
function baseline(operation: Operation, samples: Samples): Parts {
  const pathValues: Record<string, string> = {};
  const segments = operation.path.split('/');
  for (const parameter of operation.parameters.filter((p) => p.in === 'path')) {
    const index = segments.indexOf(`{${parameter.name}}`);
    pathValues[parameter.name] = encodeURIComponent(
      samples.pathId(parameter.name, segments[index - 1] ?? ''),
    );
  }
  const query: Record<string, string[]> = {};
  for (const parameter of operation.parameters.filter((p) => p.in === 'query' && p.required)) {
    const value = sampleValue(parameter.schema ?? {}, parameter.name, samples);
    query[parameter.name] = queryForms(value) ?? [];
  }
  const body = operation.body ? (samples.body?.() ?? sampleValue(operation.body, '', samples)) : undefined;
  return { pathValues, query, body };
}

const json = { 'content-type': 'application/json' };

type WholeBody = [what: string, payload: string, contentType: string | undefined];
/** Sent to every operation that takes a body, */
const alwaysWholeBodies: WholeBody[] = [
  ['empty JSON body', '', 'application/json'],
  ['malformed JSON', '{"a":', 'application/json'],
  ['deep body (20000)', deepArray(20_000), 'application/json'],
  ['text/plain', 'hello\u0000', 'text/plain'],
];
/** with a seeded few of these (and a couple of either to the others). */
const sometimesWholeBodies: WholeBody[] = [
  ['JSON null', 'null', 'application/json'],
  ['JSON array', '[{"a":1}]', 'application/json'],
  ['JSON string', '"\\u0000"', 'application/json'],
  ['JSON number', '1e400', 'application/json'],
  ['__proto__', '{"__proto__":{"admin":true}}', 'application/json'],
  ['lone surrogate key', '{"\\ud800":1}', 'application/json'],
  ['deep object body (65)', deepObject(65), 'application/json'],
  ['JSON with charset', '{}', 'application/json; charset=utf-16'],
  ['xml', '<a/>', 'application/xml'],
  ['form', 'a=%00&b=1', 'application/x-www-form-urlencoded'],
  [
    'multipart',
    '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
    'multipart/form-data; boundary=x',
  ],
  ['content type garbage', '{}', ';;;'],
  ['no content type', '{"a":1}', undefined],
];

/** The baseline request, then one hostile change at a time. */
export function casesFor(
  operation: Operation,
  samples: Samples,
  options: { seed: number; sometimesPerField: number },
): FuzzRequest[] {
  const random = seededRandom(options.seed);
  const base = baseline(operation, samples);
  const label = `${operation.method} ${operation.path}`;
  const request = (
    what: string,
    parts: Parts,
    body?: { payload: string; headers: Record<string, string> },
  ) => {
    const sent: FuzzRequest = {
      label: `${label} ${what}`,
      method: operation.method,
      url: urlOf(operation, parts),
      headers: {},
    };
    if (body) {
      sent.payload = body.payload;
      sent.headers = body.headers;
    } else if (parts.body !== undefined) {
      sent.payload = serialise(parts.body);
      sent.headers = json;
    }
    return sent;
  };
  const valuesFor = (schema: OpenApiSchema | undefined) => {
    const types = schema ? typesOf(concrete(schema)) : [];
    const holdsJson = types.length === 0 || types.includes('object');
    return [
      ...alwaysSent,
      ...(holdsJson ? sentToObjects : []),
      ...pick(random, sometimesSent, options.sometimesPerField),
    ];
  };

  const cases: FuzzRequest[] = [request('(baseline)', base)];

  for (const parameter of operation.parameters) {
    if (parameter.in === 'path') {
      for (const value of [...alwaysInPaths, ...pick(random, sometimesInPaths, 2)])
        cases.push(
          request(`path ${parameter.name}=${value.slice(0, 24)}`, {
            ...base,
            pathValues: { ...base.pathValues, [parameter.name]: value },
          }),
        );
    } else if (parameter.in === 'query') {
      for (const { name, value } of valuesFor(parameter.schema)) {
        const forms = queryForms(value);
        const query = forms
          ? { ...base.query, [parameter.name]: forms }
          : { ...base.query, [`${parameter.name}[a]`]: ['%00'] };
        cases.push(request(`query ${parameter.name}: ${name}`, { ...base, query }));
      }
    }
  }
  // Query keys the operation does not declare are not trusted either.
  cases.push(request('query key NUL', { ...base, query: { ...base.query, '\u0000': ['1'] } }));
  cases.push(request('query unknown value NUL', { ...base, query: { ...base.query, zz: ['%00'] } }));

  if (operation.body) {
    for (const field of fieldPaths(operation.body)) {
      for (const { name, value } of valuesFor(field.schema))
        cases.push(
          request(`body ${field.path.join('.')}: ${name}`, {
            ...base,
            body: withValueAt(base.body, field.path, value),
          }),
        );
      if (field.object)
        cases.push(
          request(`body ${field.path.join('.')}: extra hostile key`, {
            ...base,
            body: withValueAt(base.body, [...field.path, 'x\ud800'], '\u0000'),
          }),
        );
    }
  }

  // The body as a whole, on every operation (a GET with a body is still a request).
  const wholeBodies = operation.body
    ? [...alwaysWholeBodies, ...pick(random, sometimesWholeBodies, 3)]
    : pick(random, [...alwaysWholeBodies, ...sometimesWholeBodies], 2);
  for (const [what, payload, type] of wholeBodies)
    cases.push(request(what, base, { payload, headers: type ? { 'content-type': type } : {} }));
  return cases;
}

// ---------------------------------------------------------------------------------------------------
// Boundary integers
// ---------------------------------------------------------------------------------------------------

/**
 * Integers past the edges a server meets: a 4-byte column's (2^31 - 1, 2^31, -2^31 - 1), JavaScript's
 * exact integers (2^53 - 1) and a double's (1e308), and below zero. Each is a whole number a contract
 * without a maximum lets through to a column, an offset or a product.
 */
export const boundaryIntegers: readonly number[] = [
  2_147_483_647,
  2_147_483_648,
  Number.MAX_SAFE_INTEGER,
  1e308,
  -1,
  -2_147_483_649,
];

function holdsNumber(schema: OpenApiSchema | undefined): boolean {
  if (!schema) return false;
  const types = typesOf(concrete(schema));
  return types.includes('integer') || types.includes('number');
}

/** Whether a field takes free text, which a request can make its own (no enum, format or pattern). */
export function isFreeText(schema: OpenApiSchema): boolean {
  return (
    typesOf(schema).includes('string') &&
    !schema.enum &&
    schema.const === undefined &&
    !schema.format &&
    !schema.pattern
  );
}

/** A numeric parameter or body field of an operation: `query page`, `body party_notes.version`. */
export interface NumericField {
  name: string;
  schema: OpenApiSchema;
  at: { in: 'path' | 'query'; parameter: string } | { in: 'body'; path: string[] };
}

/** Every parameter and body field (at any depth) of the operation that takes a number. */
export function numericFields(operation: Operation): NumericField[] {
  const fields: NumericField[] = [];
  for (const parameter of operation.parameters) {
    if (
      (parameter.in === 'path' || parameter.in === 'query') &&
      parameter.schema &&
      holdsNumber(parameter.schema)
    )
      fields.push({
        name: `${parameter.in} ${parameter.name}`,
        schema: concrete(parameter.schema),
        at: { in: parameter.in, parameter: parameter.name },
      });
  }
  if (operation.body)
    for (const field of fieldPaths(operation.body).filter((f) => holdsNumber(f.schema)))
      fields.push({
        name: `body ${field.path.join('.')}`,
        schema: concrete(field.schema),
        at: { in: 'body', path: field.path },
      });
  return fields;
}

/**
 * The operation's request with each numeric field, one at a time, set to each of the boundary integers.
 * Each case is built from the samples anew, so that samples that give each request its own text keep each
 * one a real change: a request repeating text an earlier one saved may be answered as unchanged before its
 * numbers reach the database. The hostile fuzz's baseline saved the party notes' text first, and its
 * out-of-range versions then never reached the save that refused them.
 */
export function boundaryIntegerCases(operation: Operation, samples: Samples): FuzzRequest[] {
  const label = `${operation.method} ${operation.path}`;
  const fields = numericFields(operation);
  // The other numeric query parameters at their largest: a page is multiplied by the largest per_page.
  const largest: Record<string, string[]> = {};
  for (const { at, schema } of fields)
    if (at.in === 'query' && schema.maximum !== undefined) largest[at.parameter] = [String(schema.maximum)];
  const cases: FuzzRequest[] = [];
  const push = (what: string, parts: Parts) =>
    cases.push({
      label: `${label} ${what}`,
      method: operation.method,
      url: urlOf(operation, parts),
      headers: parts.body === undefined ? {} : json,
      ...(parts.body === undefined ? {} : { payload: serialise(parts.body) }),
    });
  for (const value of boundaryIntegers) {
    const text = String(value);
    for (const { name, at } of fields) {
      const parts = baseline(operation, samples);
      if (at.in === 'body') parts.body = withValueAt(parts.body, at.path, value);
      else if (at.in === 'path') parts.pathValues[at.parameter] = text;
      else {
        parts.query[at.parameter] = [encodeURIComponent(text)];
        const others = { ...parts.query, ...largest, [at.parameter]: [encodeURIComponent(text)] };
        if (Object.keys(others).length > Object.keys(parts.query).length)
          push(`${name}=${text} (others at their largest)`, {
            ...baseline(operation, samples),
            query: others,
          });
      }
      push(`${name}=${text}`, parts);
    }
  }
  return cases;
}
