import { readFileSync } from 'node:fs';
import path from 'node:path';

interface ManifestEntry {
  file: string;
  name?: string;
}

/**
 * The built web app's script files (as URL paths) whose chunk bears `name`: a lazy page by its file's name
 * ("home-page"), a shared group by its group's ("contracts"). Chunks are named by their hash alone
 * (apps/web/vite.config.ts), so their names are read from the build's manifest.
 */
export function chunkPaths(name: string): string[] {
  const manifestPath = path.resolve(import.meta.dirname, '../../apps/web/dist/.vite/manifest.json');
  const manifest: Record<string, ManifestEntry> = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const paths = Object.values(manifest)
    .filter((entry) => entry.name === name && entry.file.endsWith('.js'))
    .map((entry) => `/${entry.file}`);
  if (paths.length === 0) throw new Error(`the build has no chunk named ${name}`);
  return paths;
}
