// Bundles the compiled server (dist/main.js and everything it imports) into dist/main.js itself, so that a
// start loads one file instead of some 1,400 modules: resolving, reading and compiling them one by one was
// about half of a restart on the embedded database (issue 13 §6, docs/decisions.md "One file to start").
//
// Runs after tsc, which rewrites dist/main.js on every build. The rest of dist/ stays as tsc wrote it: the
// first start's preparation runs dist/db/prepare-pglite.js in a child process, and the files the server
// reads at run time (migrations, the SRD catalogue) stay where the modules that read them were.

import { spawnSync } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const entry = path.join(dist, 'main.js');
const marker = '// haversack: bundled server';

/**
 * Packages left to Node's own loader, each because it finds files next to its own modules at run time
 * (WebAssembly and data, a native addon, worker scripts, static files, its own package.json), which a
 * bundle would move away from them.
 */
const external = [
  '@electric-sql/pglite', // postgres.wasm and its data bundle, loaded next to its modules
  '@node-rs/argon2', // native addon
  'pino', // its transports run worker scripts by path
  'pino-pretty',
  'thread-stream',
  '@fastify/swagger', // reads its package.json through __dirname
  '@fastify/swagger-ui', // serves the files of its own static folder
  'ioredis', // names __dirname in its friendly error stacks
  'pg-native', // optional, not installed
  // Loaded only on PostgreSQL (db/postgres.ts, in a chunk of its own); left to Node so that the benches'
  // statement counter (bench/lib/count-queries.mjs) still sees every statement.
  'pg',
];

if ((await readFile(entry, 'utf8')).startsWith(marker)) {
  throw new Error('dist/main.js is already bundled: run the whole build (tsc first), not this step alone');
}

/**
 * A module of dist/ that finds a file relative to itself (`new URL('./data/…', import.meta.url)`) keeps
 * finding it once inlined into dist/main.js: its own address is rebuilt from the bundle's.
 */
const keepOwnAddress = {
  name: 'keep-own-address',
  setup(builder) {
    builder.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(dist)) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return { contents: text, loader: 'js' };
      const own = `./${path.relative(dist, args.path)}`;
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(own)}, import.meta.url).href`),
        loader: 'js',
      };
    });
  },
};

/**
 * zod re-exports its ~50 message locales as `z.locales`, so a bundle keeps all of them (358 KB of dist/main.js,
 * compiled at every start) although the server only speaks English, which zod registers by importing
 * `locales/en.js` itself. The namespace keeps that one locale.
 */
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(builder) {
    builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: path.join(path.dirname(args.importer), '../locales/en.js'), namespace: 'zod-english' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'zod-english' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

// What a dynamic import loads only when used (the PostgreSQL driver, Stripe's SDK) goes in chunks of its own
// next to main.js; a build removes the previous build's.
const chunkPrefix = 'bundle-';
for (const name of await readdir(dist)) {
  if (name.startsWith(chunkPrefix)) await rm(path.join(dist, name));
}

// The seed's fingerprint is a constant of this build (db/seed.ts): computed once here, from the modules tsc
// has just written, rather than on every start.
const { computeSeedFingerprint } = await import(pathToFileURL(path.join(dist, 'db', 'seed.js')).href);

/**
 * What the admin's System Health page names besides the version, so that an upgrade shows: the commit
 * built (when built from a git checkout) and the day of the build.
 */
function buildIdentity() {
  const git = spawnSync('git', ['rev-parse', '--short=10', 'HEAD'], { encoding: 'utf8' });
  const commit = git.status === 0 ? git.stdout.trim() || null : null;
  return { commit, builtAt: new Date().toISOString() };
}

const result = await build({
  entryPoints: [entry],
  outdir: dist,
  entryNames: '[name]',
  chunkNames: `${chunkPrefix}[name]-[hash]`,
  splitting: true,
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
  // The CommonJS packages inside an ES module still call require() for Node's own modules.
  banner: {
    js: `${marker}\nimport { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);`,
  },
  plugins: [keepOwnAddress, englishOnlyZod],
  define: {
    __HAVERSACK_SEED_FINGERPRINT__: JSON.stringify(computeSeedFingerprint()),
    __HAVERSACK_BUILD__: JSON.stringify(buildIdentity()),
  },
});

// __dirname and __filename don't exist in an ES module: a bundled package naming them would fail (or
// quietly misbehave) only when that code runs. Such a package belongs in `external`.
const outputs = Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js'));
for (const output of outputs) {
  const stray = [...(await readFile(output, 'utf8')).matchAll(/\b__(dirname|filename)\b/g)].length;
  if (stray > 0) {
    throw new Error(`${output} names __dirname or __filename ${stray} time(s): leave that package external`);
  }
}
// What a start compiles: dist/main.js, dist/start.js's chunk (main.js imports it once the arguments and the
// configuration passed: every start that serves loads it) and the chunks they import statically. What is
// loaded only when used must stay out of it, or every start (and every idle server's memory) pays for it again.
const startFiles = new Set();
const visit = (output) => {
  if (startFiles.has(output)) return;
  startFiles.add(output);
  for (const { path: imported, kind } of result.metafile.outputs[output].imports) {
    if (kind === 'import-statement' && imported in result.metafile.outputs) visit(imported);
  }
};
visit(outputs.find((file) => path.resolve(file) === entry));
const startChunk = outputs.find(
  (file) =>
    result.metafile.outputs[file].entryPoint === path.relative(process.cwd(), path.join(dist, 'start.js')),
);
if (!startChunk)
  throw new Error('no chunk holds dist/start.js: main.js must import it (dynamically) to serve');
visit(startChunk);
const keptOutOfStart = [
  [/node_modules\/stripe\//, "Stripe's SDK (billing-setup.ts imports it only when a key is set)"],
  [/node_modules\/nodemailer\//, 'nodemailer (mailer.ts loads it with the first mail)'],
  [/node_modules\/zod\/v4\/locales\/(?!en\.js)/, "zod's locales other than English (englishOnlyZod)"],
];
// Packages left to Node's loader (`external`) that a start must not load either.
const externalsKeptOutOfStart = [
  [/^@fastify\/swagger(-ui)?$/, 'The API documentation (plugins/api-docs.ts builds it on its first request)'],
];
for (const file of startFiles) {
  for (const input of Object.keys(result.metafile.outputs[file].inputs)) {
    const rule = keptOutOfStart.find(([pattern]) => pattern.test(input));
    if (rule) throw new Error(`${file} holds ${input}: ${rule[1]} must stay out of what a start loads`);
  }
  for (const { path: imported, kind, external: isExternal } of result.metafile.outputs[file].imports) {
    const rule = externalsKeptOutOfStart.find(([pattern]) => pattern.test(imported));
    if (isExternal && kind === 'import-statement' && rule) {
      throw new Error(`${file} imports ${imported}: ${rule[1]} must stay out of what a start loads`);
    }
  }
}
const startBytes = [...startFiles].reduce((sum, file) => sum + result.metafile.outputs[file].bytes, 0);
console.log(
  `bundled ${Object.keys(result.metafile.inputs).length} modules into dist/main.js and ${outputs.length - 1} chunks; a start loads ${startFiles.size} files, ${(startBytes / 1024 / 1024).toFixed(2)} MB`,
);
