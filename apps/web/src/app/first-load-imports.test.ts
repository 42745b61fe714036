import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const srcDir = path.resolve(import.meta.dirname, '..');

/** A module's static imports (dynamic `import()` and `import type` are left out: they are not in the first load). */
function staticImports(source: string): string[] {
  const specifiers: string[] = [];
  const statement = /^(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(statement)) if (match[1]) specifiers.push(match[1]);
  return specifiers;
}

function resolveRelative(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return ['.ts', '.tsx', '/index.ts', '/index.tsx', '']
    .map((ending) => `${base}${ending}`)
    .find((candidate) => existsSync(candidate) && /\.tsx?$/.test(candidate));
}

/** The packages the app's own modules import statically from main.tsx on: what the first load of any page carries. */
function firstLoadPackages(): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [path.join(srcDir, 'main.tsx')];
  for (let file = queue.pop(); file; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of staticImports(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        const resolved = resolveRelative(file, specifier);
        if (resolved) queue.push(resolved);
      } else if (!packages.has(specifier)) {
        packages.set(specifier, path.relative(srcDir, file));
      }
    }
  }
  return packages;
}

describe('the first load (issue 13 §1: /login within 150 KB of JS)', () => {
  it('follows static imports and leaves out dynamic and type-only ones', () => {
    expect(
      staticImports(
        "import type { A } from 'a';\nimport { b } from 'b';\nexport { c } from './c';\nimport 'd.css';\nconst e = () => import('./e');",
      ),
    ).toEqual(['b', './c', 'd.css']);
  });

  it('does not carry @mantine/form: the sign-in page keeps its two fields without it', () => {
    const packages = firstLoadPackages();
    expect(packages.has('react-router')).toBe(true);
    expect(packages.get('@mantine/form'), 'imported statically by').toBeUndefined();
  });
});
