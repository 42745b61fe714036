import { z } from 'zod';
import { numberInput, text } from './fields.js';

/**
 * One problem with a request. Entitlement refusals also name the resource or feature, its limit and its
 * usage, so that the client can link to the right upgrade page.
 */
export const fieldErrorSchema = z.object({
  field: z.string(),
  message: z.string(),
  resource: z.string().optional(),
  feature: z.string().optional(),
  limit: z.number().nullable().optional(),
  used: z.number().optional(),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

export const apiErrorSchema = z.object({
  type: z.string(),
  code: z.string(),
  message: z.string(),
  details: z.array(fieldErrorSchema).optional(),
  status: z.number().int(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

export const errorEnvelopeSchema = z.object({ status: z.literal('error'), error: apiErrorSchema });
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/**
 * Routes whose failures carry a spec key beside the envelope (the server's error handler adds them from
 * the route's `errorShape`): spec/02 §8 "failures return success false with an errors list" for
 * transfers, and spec/01 §7 "the forgot and reset screens read the failure text from a field named error
 * in the response data" for password recovery.
 */
export const errorShapes = ['transfer', 'password_recovery'] as const;
export type ErrorShape = (typeof errorShapes)[number];
export const transferErrorEnvelopeSchema = errorEnvelopeSchema.extend({
  success: z.literal(false),
  errors: z.array(z.string()),
});
export const passwordRecoveryErrorEnvelopeSchema = errorEnvelopeSchema.extend({
  data: z.object({ error: z.string() }),
});

export const pageMetaSchema = z.object({
  current_page: z.number().int(),
  total_pages: z.number().int(),
  total_count: z.number().int(),
  per_page: z.number().int(),
});
export type PageMeta = z.infer<typeof pageMetaSchema>;

/** The success envelope of DESIGN §3 around a payload schema. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({
    status: z.literal('success'),
    data,
    message: z.string().optional(),
  });
}

export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    status: z.literal('success'),
    data: z.array(item),
    meta: pageMetaSchema,
    message: z.string().optional(),
  });
}

/** A success that carries only a human message (e.g. forgot_password). */
export const messageEnvelopeSchema = z.object({
  status: z.literal('success'),
  data: z.object({ message: z.string() }),
  message: z.string().optional(),
});

/** spec/01 §3: page, per_page, sort, direction, search. */
export const listQuerySchema = z.object({
  page: numberInput(z.number().int().min(1)).default(1),
  per_page: numberInput(z.number().int().min(1).max(100)).default(20),
  sort: text().max(50).optional(),
  direction: z.enum(['asc', 'desc']).optional(),
  search: text().max(200).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;
