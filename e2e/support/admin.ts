/**
 * The admin account the e2e server is started with (playwright.config.ts runs
 * `admin.js create` before the server, as an operator bootstrapping a site would).
 */
export const e2eAdmin = {
  email: 'e2e-admin@example.com',
  username: 'e2e_admin',
  password: 'Adm1nistrator',
} as const;
