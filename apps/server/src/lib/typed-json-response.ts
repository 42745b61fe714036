/**
 * For hot lists whose answer is built by typed mappers (toInstanceJson): the route keeps its zod response
 * schema for the OpenAPI document, but the answer is stringified once, without zod walking and copying
 * every row first (about a quarter of a 200-item container read's CPU, review 2026-11-22). The compiler
 * checks the shape instead (the handler returns the contract's type).
 */
export const typedJsonResponse = {
  serializerCompiler: () => (data: unknown) => JSON.stringify(data),
} as const;
