import { z } from 'zod';

export const healthSchema = z.object({
  status: z.literal('ok'),
  database: z.literal('ok'),
  /**
   * With REDIS_URL only. Redis away does not make the process unready (every process shares it: a 503
   * would take them all out): live updates between processes pause and shared rate limits let requests
   * through until it is back, so monitoring reads it here.
   */
  redis: z.enum(['ok', 'unreachable']).optional(),
});
export type Health = z.infer<typeof healthSchema>;
