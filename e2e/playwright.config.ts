import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { e2eAdmin } from './support/admin';

// One fresh data directory per run, shared with the workers through the environment: the server writes
// its PGlite database and its .eml mails there, and the tests read the mails back.
if (!process.env.E2E_DATA_DIR) {
  process.env.E2E_DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'haversack-e2e-'));
}
// A port of its own per run, so two runs on one machine do not collide (7100–7899 holds none of the
// ports Chromium refuses as unsafe); workers inherit it.
process.env.E2E_PORT ??= String(7100 + Math.floor(Math.random() * 800));
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;
// The Discord stand-in (apps/server/src/test/fake-discord.ts) that e2e/specs/discord.spec.ts starts: the
// server signs in with "Discord" there, never on the network. Other specs never reach it.
process.env.E2E_DISCORD_PORT ??= String(port + 1000);
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The server runs as `npm start` runs it, with the same Node flags (the young generation's size, no
// pretenuring: docs/decisions.md), but without npm in between the server and the runner's signals.
const startCommand: string = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8'),
).scripts.start;

export default defineConfig({
  testDir: './specs',
  outputDir: './.output/results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI
    ? [['list']]
    : [['list'], ['html', { outputFolder: './.output/report', open: 'never' }]],
  globalTeardown: './global-teardown.ts',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    // Most specs run as a visitor who asked for less motion (the theme honours it: global.css), so no
    // dialog, menu or toast transition is rendered and waited out: a quarter of a spec's time in software
    // rendering on 2 cores (docs/decisions.md). The phone and drag specs keep every transition
    // (`withMotion` in support/motion.ts), so both ways stay covered.
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } } },
  ],
  webServer: {
    // The fresh database gets one admin first (`npm run admin -- create`), then the server starts on it.
    command: `node apps/server/dist/cli/admin.js create ${e2eAdmin.email} ${e2eAdmin.username} --new-site && exec ${startCommand}`,
    cwd: path.resolve(import.meta.dirname, '..'),
    url: `${baseURL}/api/v1/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      APP_URL: baseURL,
      LOG_LEVEL: 'warn',
      // Every spec signs people up from one address; keep the limits, only wider.
      RATE_LIMIT_SCALE: '20',
      // The specs upgrade through the demo checkout, as the quick start does.
      BILLING_PROVIDER: 'local',
      DISCORD_CLIENT_ID: 'fake-client-id',
      DISCORD_CLIENT_SECRET: 'fake-client-secret',
      DISCORD_API_BASE_URL: `http://127.0.0.1:${process.env.E2E_DISCORD_PORT}`,
      ADMIN_PASSWORD: e2eAdmin.password,
    },
  },
});
