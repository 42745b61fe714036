// Vite plugin for the web app: Mantine's styles per component (issue 13 §1). `import 'virtual:mantine-styles'`
// stands for the stylesheets of the Mantine components the app uses, instead of the whole of
// `@mantine/core/styles.css` (61 of its 102 components' files: 195 of 295 KB unminified; /login's CSS went
// from 32.3 to 23.0 KB brotli).
//
// The components are found from the sources: every name imported from `@mantine/core` in apps/web/src, and
// every one the other Mantine packages the app imports (notifications, charts) take from it, followed
// through Mantine's own modules, so that a Select brings the Input, Combobox, Popover and ScrollArea it is
// built from. The files are imported in the order they have in styles.css, so the cascade is the same.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const webSource = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
const virtualId = 'virtual:mantine-styles';

/** The styles every Mantine app needs first, whatever it draws. */
const foundation = ['baseline', 'default-css-variables', 'global'];

/** A Mantine package's directory (its package.json is not among its exports). */
function mantinePackageDir(name) {
  let dir = path.dirname(require.resolve(`@mantine/${name}`));
  while (!existsSync(path.join(dir, 'package.json')) || !dir.endsWith(path.join('@mantine', name)))
    dir = path.dirname(dir);
  return dir;
}

/** The files under `dir` whose names `keep` accepts (directories' names end in no extension it keeps). */
const filesUnder = (dir, keep) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => keep(path.basename(file)))
    .map((file) => path.join(dir, file));

/** The names an `import { … } from '<source>'` list brings as values (types have no styles). */
function importedNames(code, source) {
  const names = new Set();
  let everything = false;
  const quoted = source.replace(/[/]/g, '\\/');
  const named = new RegExp(`import\\s+(type\\s+)?\\{([^}]*)\\}\\s*from\\s*['"]${quoted}['"]`, 'g');
  for (const [, typeOnly, list] of code.matchAll(named)) {
    if (typeOnly) continue;
    for (const part of list.split(',')) {
      const item = part.trim();
      if (!item || item.startsWith('type ')) continue;
      names.add(item.split(/\s+as\s+/)[0].trim());
    }
  }
  if (new RegExp(`(import|export)\\s+\\*[^;]*from\\s*['"]${quoted}['"]`).test(code)) everything = true;
  return { names, everything };
}

/**
 * The style files (names under `@mantine/core/styles/`, without `.css`) that the given sources need, in
 * the order of styles.css.
 */
export function usedMantineStyles(sourceDir = webSource) {
  const coreDir = mantinePackageDir('core');
  const esm = path.join(coreDir, 'esm');
  const stylesDir = path.join(coreDir, 'styles');

  // Where each export of @mantine/core lives, from its index (`import { Button } from "./components/…"`).
  const index = readFileSync(path.join(esm, 'index.mjs'), 'utf8');
  const moduleOf = new Map();
  for (const [, list, from] of index.matchAll(/import\s*\{([^}]*)\}\s*from\s*"(\.[^"]+)"/g))
    for (const part of list.split(',')) {
      const [name, alias] = part.trim().split(/\s+as\s+/);
      if (name) moduleOf.set((alias ?? name).trim(), path.resolve(esm, from));
    }

  const wanted = new Set();
  let everything = false;
  const take = (code) => {
    const found = importedNames(code, '@mantine/core');
    for (const name of found.names) wanted.add(name);
    everything ||= found.everything;
  };
  const otherPackages = new Set();
  for (const file of filesUnder(
    sourceDir,
    (name) => /\.(ts|tsx|mts)$/.test(name) && !/\.test\./.test(name),
  )) {
    const code = readFileSync(file, 'utf8');
    take(code);
    for (const [, name] of code.matchAll(/from\s*['"]@mantine\/([a-z-]+)['"]/g))
      if (name !== 'core' && name !== 'hooks' && name !== 'form') otherPackages.add(name);
  }
  for (const name of otherPackages)
    for (const file of filesUnder(path.join(mantinePackageDir(name), 'esm'), (f) => f.endsWith('.mjs')))
      take(readFileSync(file, 'utf8'));

  const available = readdirSync(stylesDir)
    .filter((f) => f.endsWith('.css') && !f.endsWith('.layer.css'))
    .map((f) => f.slice(0, -'.css'.length));
  const styled = new Set(available);

  // Every styled directory reached from what is used, through Mantine's relative imports: the components'
  // own (components/Switch) and those of shared parts (utils/InlineInput, which lays out a Switch's label).
  const components = new Set();
  const visited = new Set();
  const visit = (file) => {
    if (visited.has(file)) return;
    visited.add(file);
    for (const part of path.dirname(path.relative(esm, file)).split(path.sep))
      if (styled.has(part)) components.add(part);
    const code = readFileSync(file, 'utf8');
    for (const [, from] of code.matchAll(/(?:import|export)[^"';]*?from\s*"(\.[^"]+)"/g))
      visit(path.resolve(path.dirname(file), from));
  };
  for (const name of wanted) {
    const file = moduleOf.get(name);
    if (file) visit(file);
  }

  const chosen = available.filter((name) => foundation.includes(name) || everything || components.has(name));
  // styles.css is these files one after the other: each is placed where its text starts in it.
  const whole = readFileSync(path.join(coreDir, 'styles.css'), 'utf8');
  const placed = chosen.map((name) => {
    const text = readFileSync(path.join(stylesDir, `${name}.css`), 'utf8').trim();
    const at = whole.indexOf(text.slice(0, 400));
    if (at < 0) throw new Error(`@mantine/core/styles/${name}.css is not part of styles.css`);
    return { name, at };
  });
  return placed.sort((a, b) => a.at - b.at).map(({ name }) => name);
}

export function mantineStylesPlugin() {
  return {
    name: 'haversack:mantine-styles',
    resolveId(id) {
      return id === virtualId ? `\0${virtualId}` : null;
    },
    load(id) {
      if (id !== `\0${virtualId}`) return null;
      return usedMantineStyles()
        .map((name) => `import '@mantine/core/styles/${name}.css';`)
        .join('\n');
    },
    // In `vite dev`, a source that starts using another component brings its styles at the next reload.
    handleHotUpdate({ file, server }) {
      if (!file.startsWith(webSource)) return;
      const styles = server.moduleGraph.getModuleById(`\0${virtualId}`);
      if (styles) server.moduleGraph.invalidateModule(styles);
    },
  };
}
