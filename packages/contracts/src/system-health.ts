import { z } from 'zod';
import { pageQuerySchema } from './back-office.js';

// Issue 15 item 4: the System Health page and the Background Jobs page of the admin back office.

export const healthStatuses = ['ok', 'warn', 'down'] as const;
export type HealthStatus = (typeof healthStatuses)[number];

const status = z.enum(healthStatuses);
const count = z.number().int();

export const systemHealthSchema = z.object({
  checked_at: z.string(),
  database: z.object({ status, engine: z.enum(['pglite', 'postgresql']), latency_ms: z.number().nullable() }),
  redis: z.object({ status, configured: z.boolean(), latency_ms: z.number().nullable() }),
  mail: z.object({ status, transport: z.enum(['smtp', 'file']) }),
  billing: z.object({ status, provider: z.enum(['stripe', 'local', 'none']) }),
  realtime: z.object({ status, connections: count, streams: count }),
  jobs: z.object({ status, queued: count, scheduled: count, failed: count }),
  /** The disk holding DATA_DIR (PGlite's database, mail files, the generated secret): room left. */
  disk: z.object({ status, free_bytes: count.nullable() }),
  app: z.object({
    version: z.string(),
    node_version: z.string(),
    uptime_s: z.number(),
    memory_rss_bytes: count,
  }),
});
export type SystemHealth = z.infer<typeof systemHealthSchema>;

/** queued: due now; scheduled: due later; failed: tried and failed at least once (attempts > 0). */
export const jobStatuses = ['queued', 'scheduled', 'failed'] as const;
export type JobStatus = (typeof jobStatuses)[number];

export const adminJobQuerySchema = pageQuerySchema.extend({
  status: z.enum(jobStatuses, { error: 'status must be queued, scheduled or failed' }).default('queued'),
});
export type AdminJobQuery = z.infer<typeof adminJobQuerySchema>;

export const adminJobSchema = z.object({
  id: z.string(),
  kind: z.string(),
  key: z.string(),
  run_at: z.string(),
  attempts: count,
  last_error: z.string().nullable(),
  created_at: z.string(),
});
export type AdminJob = z.infer<typeof adminJobSchema>;
