import { ADMIN_SESSION_HEADER } from '@haversack/contracts';
import { setAdminFlag } from '../modules/admin/admin-flag.js';
import { createUser, type SignedInUser, type UserOverrides } from './factories.js';
import { callApi, type TestContext } from './helper.js';

export interface SignedInAdmin extends SignedInUser {
  /** The bearer token and the admin session header, for `callApi(ctx, method, url, admin.adminAuth)`. */
  adminAuth: { auth: { authorization: string } & Record<string, string> };
  adminSessionToken: string;
}

/** Gives an existing user the admin flag, as `npm run admin -- grant` does. */
export async function grantAdmin(ctx: TestContext, user: SignedInUser): Promise<void> {
  await setAdminFlag(ctx.database.db, user.user.email, true);
}

/** Starts an admin session for a user who has the flag, through the API. */
export async function enterAdminMode(ctx: TestContext, user: SignedInUser): Promise<SignedInAdmin> {
  const response = await callApi(ctx, 'POST', '/admin/sessions', user);
  if (response.statusCode !== 201) throw new Error(`admin session refused: ${response.body}`);
  const token = (response.json() as { data: { token: string } }).data.token;
  return {
    ...user,
    adminSessionToken: token,
    adminAuth: { auth: { ...user.auth, [ADMIN_SESSION_HEADER.toLowerCase()]: token } },
  };
}

/** A new user with the admin flag and a live admin session. */
export async function createAdmin(ctx: TestContext, overrides: UserOverrides = {}): Promise<SignedInAdmin> {
  const user = await createUser(ctx, overrides);
  await grantAdmin(ctx, user);
  return enterAdminMode(ctx, user);
}
