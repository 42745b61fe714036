import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type OembedResponse, type SharedSnapshot, shareMessages, sharePath } from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import type { SharesService } from './shares.service.js';

const SITE_NAME = 'Haversack';
/** A 1200×630 card shipped with the web app (apps/web/public); previews show it when it is there. */
const OG_IMAGE = { file: 'og-image.png', width: 1200, height: 630 };

const htmlEscapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Everything put into the page comes from users (names, descriptions): escaped for text and attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => htmlEscapes[char] ?? char);
}

export interface PageMeta {
  title: string;
  description: string;
  url: string;
  image?: { url: string; width: number; height: number };
  oembedUrl?: string;
}

/** The Open Graph, Twitter and oEmbed discovery tags chat apps read to unfurl a link into a card. */
export function metaTags(meta: PageMeta): string {
  const property = (name: string, content: string) =>
    `<meta property="${name}" content="${escapeHtml(content)}" />`;
  const named = (name: string, content: string) => `<meta name="${name}" content="${escapeHtml(content)}" />`;
  return [
    named('description', meta.description),
    // Shared pages are for the people the link is given to, not for search engines.
    named('robots', 'noindex'),
    property('og:type', 'website'),
    property('og:site_name', SITE_NAME),
    property('og:title', meta.title),
    property('og:description', meta.description),
    property('og:url', meta.url),
    ...(meta.image
      ? [
          property('og:image', meta.image.url),
          property('og:image:width', String(meta.image.width)),
          property('og:image:height', String(meta.image.height)),
        ]
      : []),
    named('twitter:card', meta.image ? 'summary_large_image' : 'summary'),
    named('twitter:title', meta.title),
    named('twitter:description', meta.description),
    ...(meta.image ? [named('twitter:image', meta.image.url)] : []),
    ...(meta.oembedUrl
      ? [
          `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(meta.oembedUrl)}" title="${escapeHtml(meta.title)}" />`,
        ]
      : []),
  ].join('\n    ');
}

/** index.html with the page's own title and description, and the unfurl tags before </head>. */
export function injectMeta(indexHtml: string, meta: PageMeta): string {
  return indexHtml
    .replace(/<title>[^<]*<\/title>/i, () => `<title>${escapeHtml(meta.title)} · ${SITE_NAME}</title>`)
    .replace(/\s*<meta name="description"[^>]*>/i, '')
    .replace(/<\/head>/i, () => `  ${metaTags(meta)}\n  </head>`);
}

const fallbackPage = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>${SITE_NAME}</title>
  </head>
  <body></body>
</html>
`;

/** The share code in a share page's URL (any host: the path says what it is). */
export function shareCodeFromUrl(url: string, appUrl: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  // oEmbed describes this site's links only: another host's address is no share link of ours.
  if (parsed.origin !== new URL(appUrl).origin) return undefined;
  const match = /^\/discord\/share\/([A-Za-z0-9_-]{1,64})\/?$/.exec(parsed.pathname);
  return match?.[1];
}

function describe(snapshot: SharedSnapshot): string {
  if (snapshot.kind === 'character')
    return snapshot.subtitle ? `${snapshot.summary} · ${snapshot.subtitle}` : snapshot.summary;
  return snapshot.summary;
}

/** GET oembed?url=: oEmbed's own JSON for a share link; 404 for anything else. */
export async function oembedFor(shares: SharesService, appUrl: string, url: string): Promise<OembedResponse> {
  const code = shareCodeFromUrl(url, appUrl);
  if (!code) throw new AppError('RESOURCE_NOT_FOUND', shareMessages.notFound);
  const snapshot = await shares.snapshot(code);
  return {
    version: '1.0',
    type: 'link',
    title: snapshot.summary,
    provider_name: SITE_NAME,
    provider_url: appUrl,
    author_name: snapshot.title,
  };
}

/**
 * GET /discord/share/{code} (spec/02 §2): the web app's page, with the shared thing's title and summary in
 * its meta tags, so that Discord and other chat apps that never run the app's script still unfurl the link.
 * An unknown or revoked code gets the same page (the app shows its not-found state) with a 404 status.
 */
export async function sharePageRoutes(
  app: FastifyInstance,
  options: { shares: SharesService; appUrl: string; distDir: string | undefined },
) {
  const { shares, appUrl } = options;
  const indexFile = options.distDir ? path.join(options.distDir, 'index.html') : undefined;
  const image =
    options.distDir && existsSync(path.join(options.distDir, OG_IMAGE.file))
      ? { url: `${appUrl}/${OG_IMAGE.file}`, width: OG_IMAGE.width, height: OG_IMAGE.height }
      : undefined;

  app.get<{ Params: { code: string } }>(
    '/discord/share/:code',
    { config: { rateLimit: { max: 120, timeWindow: 60_000 } }, schema: { hide: true } },
    async (request, reply) => {
      const code = request.params.code;
      const url = `${appUrl}${sharePath(encodeURIComponent(code))}`;
      const html = indexFile && existsSync(indexFile) ? await readFile(indexFile, 'utf8') : fallbackPage;
      let meta: PageMeta;
      let status = 200;
      try {
        const snapshot = await shares.snapshot(code);
        meta = {
          title: snapshot.title,
          description: describe(snapshot),
          url,
          ...(image ? { image } : {}),
          oembedUrl: `${appUrl}/api/v1/oembed?url=${encodeURIComponent(url)}`,
        };
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 404) throw error;
        status = 404;
        meta = {
          title: 'Share link not found',
          description: shareMessages.notFound,
          url,
          ...(image ? { image } : {}),
        };
      }
      return reply
        .status(status)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(injectMeta(html, meta));
    },
  );
}
