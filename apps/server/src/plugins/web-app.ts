import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.js';

const apiPrefixes = ['/api/', '/users/', '/cable'];

function isApiPath(url: string): boolean {
  return url === '/api' || apiPrefixes.some((prefix) => url.startsWith(prefix));
}

/**
 * A request for a file of the built web app (the bundle under /assets/, the favicon, icons, the
 * manifest): it gets no request log lines, so a page load is one line, not twenty (issue 12).
 */
export function isStaticAssetRequest(request: { method: string; url: string }): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const url = request.url.split('?')[0] ?? '/';
  return !isApiPath(url) && (url.startsWith('/assets/') || path.posix.extname(url) !== '');
}

/**
 * Serves the built web app with SPA fallback: a browser asking for /parties/42 gets index.html and the
 * client router takes over. API paths never fall back: an unknown API route is a 404 in the envelope.
 */
export const webAppPlugin = fp(
  async (app: FastifyInstance, options: { distDir: string | undefined }) => {
    const distDir =
      options.distDir && existsSync(path.join(options.distDir, 'index.html')) ? options.distDir : undefined;
    if (distDir) {
      await app.register(fastifyStatic, {
        root: distDir,
        wildcard: true,
        index: ['index.html'],
        // The build writes .br and .gz copies (apps/web/scripts/precompress.mjs): send those as they are.
        preCompressed: true,
        // Nothing under a dot-folder is for visitors: the build's manifest (.vite/) maps every chunk to the
        // source file it holds, for the build's tools and the end-to-end specs.
        dotfiles: 'ignore',
        setHeaders: (res, filePath) => {
          // Vite fingerprints everything under assets/; index.html must always be revalidated.
          if (filePath.includes(`${path.sep}assets${path.sep}`)) {
            res.header('cache-control', 'public, max-age=31536000, immutable');
          } else {
            res.header('cache-control', 'no-cache');
          }
        },
      });
      // The pages name /favicon.svg (index.html), but a browser showing an answer that is no page (a JSON
      // link opened in a tab) asks for /favicon.ico by habit: sent on to the one icon, not answered 404.
      app.get('/favicon.ico', { schema: { hide: true } }, (_request, reply) =>
        reply.redirect('/favicon.svg', 301),
      );
    } else {
      app.log.warn('web app not built: run `npm run build` to serve it; the API works without it');
    }

    app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
      const url = request.url.split('?')[0] ?? '/';
      const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(url);
      if (distDir && wantsPage && !path.extname(url)) {
        return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html', distDir);
      }
      throw new AppError('RESOURCE_NOT_FOUND', `No route matches ${request.method} ${url}`);
    });
  },
  { name: 'web-app', dependencies: ['error-handler'] },
);
