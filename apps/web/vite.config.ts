import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API server the dev server proxies to; HAVERSACK_API_ORIGIN overrides it (e.g. a second server for e2e).
const serverOrigin = process.env.HAVERSACK_API_ORIGIN ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
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
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // React and the router are needed by every page and change rarely: keep them in one stable,
        // separately cached chunk. Everything else, Mantine included, splits along the lazy routes, so
        // the first load carries only the components its page uses (issue 13 §1).
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 2,
            },
          ],
        },
      },
    },
  },
});
