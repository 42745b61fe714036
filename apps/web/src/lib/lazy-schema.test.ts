import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { lazySchemaRanges, makeSchemasLazy } from '../../scripts/lazy-schemas-plugin.mjs';
import { lazySchema } from './lazy-schema';

describe('lazySchema (issue 13 §1)', () => {
  it('builds the schema on first use only, once, and behaves as the schema itself', () => {
    const build = vi.fn(() =>
      z.object({ name: z.string().min(1, 'Name is required'), count: z.number().int() }),
    );
    const schema = lazySchema(build);
    expect(build).not.toHaveBeenCalled();

    expect(schema.parse({ name: 'Torch', count: 2 })).toEqual({ name: 'Torch', count: 2 });
    const refused = schema.safeParse({ name: '', count: 1.5 });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.message)).toContain('Name is required');
    expect(build).toHaveBeenCalledTimes(1);

    // Composed into other schemas, extended, inspected: the same as the built schema.
    expect(z.array(schema).parse([{ name: 'Rope', count: 1 }])).toHaveLength(1);
    expect(schema.extend({ notes: z.string() }).parse({ name: 'A', count: 1, notes: '' })).toMatchObject({
      notes: '',
    });
    expect(Object.keys(schema.shape)).toEqual(['name', 'count']);
    expect(schema instanceof z.ZodObject).toBe(true);
    expect('parse' in schema).toBe(true);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('a lazy schema inside a lazy schema is built when the outer one is used', () => {
    const inner = vi.fn(() => z.object({ id: z.string() }));
    const innerSchema = lazySchema(inner);
    const outerSchema = lazySchema(() => z.object({ owner: innerSchema, items: z.array(innerSchema) }));
    expect(inner).not.toHaveBeenCalled();
    expect(outerSchema.parse({ owner: { id: 'a' }, items: [{ id: 'b' }] })).toEqual({
      owner: { id: 'a' },
      items: [{ id: 'b' }],
    });
    expect(outerSchema.safeParse({ owner: { id: 1 }, items: [] }).success).toBe(false);
    expect(inner).toHaveBeenCalledTimes(1);
  });
});

describe('the lazy schemas build plugin', () => {
  it('wraps schema values and leaves constants, functions and aliases alone', () => {
    const code = [
      "import { z } from 'zod';",
      "export const messages = { required: 'Required' } as const;",
      'export const kinds = [1, 2] as const;',
      'const count = z.number().int();',
      'const imageUrl = text().trim().max(2000);',
      'export const kindNames = Object.keys(kinds);',
      "export const sortedSchema = ['a'] as const;",
      'export const itemSchema = z.object({ count });',
      'export const itemListSchema = z.array(itemSchema);',
      'export const sameSchema = itemSchema;',
      'export const pageSchema = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item) });',
      'export function helper() { return 1; }',
    ].join('\n');
    const wrapped = lazySchemaRanges(code).map(([start, end]) => code.slice(start, end));
    expect(wrapped).toEqual([
      'z.number().int()',
      'text().trim().max(2000)',
      'z.object({ count })',
      'z.array(itemSchema)',
    ]);
    const lazy = makeSchemasLazy(code, '/lazy-schema.ts') ?? '';
    expect(lazy).toContain('export const itemSchema = __lazySchema(() => z.object({ count }));');
    expect(lazy).toContain('export const sameSchema = itemSchema;');
    expect(lazy).toContain("export const messages = { required: 'Required' } as const;");
    expect(lazy.startsWith('import { lazySchema as __lazySchema } from "/lazy-schema.ts";')).toBe(true);
    expect(makeSchemasLazy('export const a = 1;', '/lazy-schema.ts')).toBeNull();
  });
});
