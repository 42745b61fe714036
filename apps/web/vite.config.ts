import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { lazySchemasPlugin } from './scripts/lazy-schemas-plugin.mjs';
import { mantineStylesPlugin } from './scripts/mantine-styles-plugin.mjs';

// The API server the dev server proxies to; HAVERSACK_API_ORIGIN overrides it (e.g. a second server for e2e).
const serverOrigin = process.env.HAVERSACK_API_ORIGIN ?? 'http://127.0.0.1:3000';

/** Mantine's components that draw in a layer, scroll, or carry a big input: public pages use none of them. */
const mantineOverlays = new Set([
  'AppShell',
  'Autocomplete',
  'Combobox',
  'Drawer',
  'Menu',
  'Modal',
  'ModalBase',
  'MultiSelect',
  'NumberInput',
  'Pagination',
  'Popover',
  'Portal',
  'ScrollArea',
  'Select',
  'Table',
  'TagsInput',
  'Tooltip',
]);
const isMantineOverlay = (id: string) =>
  mantineOverlays.has(/@mantine[\\/]core[\\/]esm[\\/]components[\\/]([^\\/]+)[\\/]/.exec(id)?.[1] ?? '');

export default defineConfig({
  // The contracts' schemas are built on first use in the browser (scripts/lazy-schemas-plugin.mjs).
  plugins: [react(), lazySchemasPlugin(), mantineStylesPlugin()],
  resolve: {
    // Build from the contracts' source: one copy of the schemas, no stale dist in dev.
    alias: {
      '@haversack/contracts': fileURLToPath(
        new URL('../../packages/contracts/src/index.ts', import.meta.url),
      ),
    },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target: serverOrigin, changeOrigin: true },
      '/users': { target: serverOrigin, changeOrigin: true },
      '/cable': { target: serverOrigin, changeOrigin: true, ws: true },
    },
  },
  preview: { port: 4173 },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    manifest: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // The entry's route table names every lazy chunk (its import and its preload list), some 140 of them:
        // a chunk is named by its content's hash alone, which took 1 KB off the first load's gzip (the names
        // were half the table). What each file holds is in dist/.vite/manifest.json (the end-to-end specs read
        // it to find a chunk by its name).
        chunkFileNames: 'assets/[hash:8].js',
        // The first load is three files: React and the router (needed by every page, rarely changing, so
        // cached across releases), the libraries the first page needs (Mantine's provider and the inputs,
        // TanStack Query's client, the form), and the app's own start-up code. `$initial` is what the entry
        // imports statically; without these groups rolldown cut it into some twenty small shared chunks,
        // each a request with its own headers. Everything else splits along the lazy routes, so the first
        // load carries only what its page uses (issue 13 §1).
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 3,
            },
            { name: 'vendor', test: /node_modules[\\/]/, tags: ['$initial'], priority: 2 },
            { name: 'index', tags: ['$initial'], priority: 1 },
            // What the lazy pages share is grouped too: the inventory page drew on some 110 files of a few KB
            // each, and a phone on HTTP/1.1 (six connections) waits a round trip per six of them.
            // Mantine's overlays and big inputs (floating-ui, comboboxes, menus, the app shell, scroll areas)
            // make two thirds of what the lazy pages share of it. A public page (the landing page) draws with
            // none of them, so they are a chunk of their own, which signed-in pages load as well. Mantine's
            // own helpers go with the first group (higher priority), so that it never imports the second.
            {
              name: 'mantine',
              test: (id) =>
                /node_modules[\\/](@mantine[\\/](core|hooks)|@tabler[\\/]icons-react)[\\/]/.test(id) &&
                !isMantineOverlay(id),
              priority: 1,
            },
            {
              name: 'mantine-overlays',
              test: /node_modules[\\/](@floating-ui|react-number-format|react-remove-scroll(-bar)?|@mantine[\\/]core)[\\/]/,
              priority: 0,
            },
            {
              name: 'contracts',
              test: /(packages[\\/]contracts[\\/]src|node_modules[\\/]zod)[\\/]/,
              priority: 0,
            },
            {
              name: 'app-common',
              test: /apps[\\/]web[\\/]src[\\/](components|lib|features[\\/][^\\/]+[\\/]api)[\\/]/,
              minShareCount: 2,
              priority: 0,
            },
          ],
        },
      },
    },
  },
});
