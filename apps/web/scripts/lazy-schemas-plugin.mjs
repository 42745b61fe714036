// Vite plugin for the web build: the contracts' top-level schemas are built on first use, not as their
// modules load (issue 13 §1). In packages/contracts/src, each top-level `const` whose value is a call (not
// a function, literal or alias) and whose name ends in "Schema" or whose call chain starts from zod or a
// schema helper (`text()`, `entityId()`...) becomes `lazySchema(() => <value>)` (src/lib/lazy-schema.ts). The sources, their types and the server
// are untouched.
import { fileURLToPath } from 'node:url';
import { parseAst } from 'vite';

const contractsSource = /[\\/]packages[\\/]contracts[\\/]src[\\/][^\\/]+\.ts$/;

// What builds a schema: zod itself and the contracts' own schema helpers (fields.ts, list-params.ts, and
// the local `numeric` and `shortText` of items.ts and loot.ts).
const schemaFactories = new Set([
  'z',
  'text',
  'entityId',
  'numeric',
  'shortText',
  'sortParam',
  'includeParam',
]);

/** The identifier a call chain starts from: `z` for `z.object(...).strict()`, `text` for `text().trim()`. */
function rootName(node) {
  let current = node;
  while (current) {
    if (current.type === 'Identifier') return current.name;
    if (current.type === 'CallExpression') current = current.callee;
    else if (current.type === 'MemberExpression') current = current.object;
    else return null;
  }
  return null;
}

/** The top-level declarators to wrap in `code` (a contracts module), as [start, end] of their values. */
export function lazySchemaRanges(code) {
  const ranges = [];
  for (const statement of parseAst(code, { lang: 'ts' }).body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (declaration?.type !== 'VariableDeclaration' || declaration.kind !== 'const') continue;
    for (const declarator of declaration.declarations) {
      const init = declarator.init;
      if (declarator.id.type !== 'Identifier' || !init) continue;
      const value = init.type === 'TSAsExpression' ? init.expression : init;
      if (value.type !== 'CallExpression') continue;
      if (declarator.id.name.endsWith('Schema') || schemaFactories.has(rootName(value)))
        ranges.push([init.start, init.end]);
    }
  }
  return ranges;
}

/** `code` with each of those values built on first use, `lazySchema` imported from `helper`. */
export function makeSchemasLazy(code, helper) {
  const ranges = lazySchemaRanges(code);
  if (ranges.length === 0) return null;
  let out = code;
  for (const [start, end] of ranges.reverse())
    out = `${out.slice(0, start)}__lazySchema(() => ${out.slice(start, end)})${out.slice(end)}`;
  return `import { lazySchema as __lazySchema } from ${JSON.stringify(helper)};\n${out}`;
}

export function lazySchemasPlugin() {
  const helper = fileURLToPath(new URL('../src/lib/lazy-schema.ts', import.meta.url));
  return {
    name: 'haversack-lazy-schemas',
    enforce: 'pre',
    apply: 'build',
    transform(code, id) {
      if (!contractsSource.test(id) || id.endsWith('.test.ts')) return null;
      const lazy = makeSchemasLazy(code, helper);
      return lazy === null ? null : { code: lazy, map: null };
    },
  };
}
