// The baseline of bench/container-read.bench.mjs: a bare Fastify + node-postgres server in its own
// process that answers GET /containers/:id/items with the same query as Haversack's list (a container's
// stacks joined to their templates, the total in a window, ordered by name, one page) and the rows as
// JSON: no authentication, no access check, no response schema. Prints its port on stdout when ready.
import Fastify from 'fastify';
import pg from 'pg';

// The same pool settings as Haversack's (apps/server/src/db/postgres.ts): 10 connections kept 5 minutes
// when idle, so that neither server reconnects between the bench's phases.
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: 10,
  idleTimeoutMillis: 5 * 60_000,
});
const app = Fastify({ logger: false });
app.get('/containers/:id/items', async (request) => {
  const perPage = Number(request.query.per_page ?? 20);
  const { rows } = await pool.query(
    `select i.id, i.container_id, i.item_template_id, i.quantity, i.instance_data, i.notes, i.is_identified,
            i.created_at, i.updated_at, t.id as template_id, t.name, t.weight, t.base_value, t.currency,
            t.stack_size, t.tags, t.metadata, t.system_key, count(*) over () as total
       from item_instances i join item_templates t on t.id = i.item_template_id
      where i.container_id = $1
      order by coalesce(i.instance_data->>'name_override', t.name), i.created_at
      limit $2`,
    [request.params.id, perPage],
  );
  return { status: 'success', data: rows, meta: { total_count: Number(rows[0]?.total ?? 0) } };
});
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ port: app.server.address().port }));
process.on('SIGTERM', () => void app.close().then(() => pool.end().then(() => process.exit(0))));
