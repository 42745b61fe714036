// The compiled server reads files that tsc does not emit: its SQL migrations next to dist/db/client.js
// and the SRD 5.1 catalogue (with its licence notice) next to dist/modules/items/items.catalogue.js.
import { cpSync } from 'node:fs';

const assets = ['db/migrations', 'modules/items/data'];

for (const asset of assets) {
  cpSync(new URL(`../src/${asset}`, import.meta.url), new URL(`../dist/${asset}`, import.meta.url), {
    recursive: true,
  });
}
