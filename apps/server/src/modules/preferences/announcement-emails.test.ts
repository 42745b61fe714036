import { announcementEmailsMessages } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/accounts.js';
import { createUser, type SignedInUser } from '../../test/factories.js';
import { buildTestApp, json, type TestContext } from '../../test/helper.js';
import { AnnouncementEmailLinks } from './announcement-emails.js';

let ctx: TestContext;
let links: AnnouncementEmailLinks;
beforeAll(async () => {
  ctx = await buildTestApp();
  // The server's own links: the same secret and address as the app's.
  links = new AnnouncementEmailLinks({ secret: ctx.jwtSecret ?? '', appUrl: ctx.config.appUrl });
});
afterAll(async () => ctx.close());

const post = (url: string, payload: unknown) =>
  ctx.app.inject({ method: 'POST', url: `/api/v1${url}`, payload: payload as object });

async function announcementEmailsOf(user: SignedInUser): Promise<unknown> {
  const response = await ctx.app.inject({ url: '/users/preferences', headers: user.auth });
  return json<{ data: { preferences: { announcementEmails: unknown } } }>(response).data.preferences
    .announcementEmails;
}

const refusal = {
  status: 'error',
  error: {
    code: 'BAD_REQUEST',
    message: announcementEmailsMessages.invalid,
    details: [{ field: 'token', message: announcementEmailsMessages.invalid }],
  },
};

/** The token with one character of its MAC changed. */
function tampered(token: string): string {
  const last = token.at(-2) === 'A' ? 'B' : 'A';
  return `${token.slice(0, -2)}${last}${token.slice(-1)}`;
}

describe('the unsubscribe link of a mass mail, signed out', () => {
  it('starts on: announcement emails are wanted until turned off', async () => {
    const user = await createUser(ctx);
    expect(await announcementEmailsOf(user)).toBe(true);
  });

  it('names its user, and only with this server’s secret', () => {
    const userId = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
    const token = links.tokenFor(userId);
    expect(links.userOf(token)).toBe(userId);
    expect(links.userOf(tampered(token))).toBeUndefined();
    const elsewhere = new AnnouncementEmailLinks({ secret: 'another-secret-'.repeat(4), appUrl: 'x' });
    expect(elsewhere.userOf(token)).toBeUndefined();
    // Another user's id with this user's MAC.
    const otherId = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';
    expect(links.userOf(`${otherId}${token.slice(userId.length)}`)).toBeUndefined();
    expect(links.userOf(userId)).toBeUndefined();
    expect(links.userOf('')).toBeUndefined();
  });

  it('turns them off, says so, and the undo turns them on again', async () => {
    const user = await createUser(ctx);
    const token = links.tokenFor(user.user.id);
    const off = await post('/announcement_emails/unsubscribe', { token });
    expect(off.statusCode, off.body).toBe(200);
    expect(json(off)).toEqual({
      status: 'success',
      data: { announcement_emails: false },
      message: 'You will no longer receive announcements by email from Haversack.',
    });
    expect(await announcementEmailsOf(user)).toBe(false);
    // A second click (the page opened again) says the same.
    expect((await post('/announcement_emails/unsubscribe', { token })).statusCode).toBe(200);

    const on = await post('/announcement_emails/resubscribe', { token });
    expect(on.statusCode, on.body).toBe(200);
    expect(json(on)).toEqual({
      status: 'success',
      data: { announcement_emails: true },
      message: announcementEmailsMessages.resubscribed,
    });
    expect(await announcementEmailsOf(user)).toBe(true);
  });

  it('refuses a tampered, foreign or cut token with the field named, and changes nothing', async () => {
    const user = await createUser(ctx);
    const token = links.tokenFor(user.user.id);
    const foreign = new AnnouncementEmailLinks({
      secret: 'another-secret-'.repeat(4),
      appUrl: ctx.config.appUrl,
    }).tokenFor(user.user.id);
    for (const bad of [tampered(token), foreign, token.slice(0, -5), user.user.id, 'nonsense']) {
      for (const url of ['/announcement_emails/unsubscribe', '/announcement_emails/resubscribe']) {
        const response = await post(url, { token: bad });
        expect(response.statusCode, `${url} ${bad}`).toBe(400);
        expect(json(response)).toMatchObject(refusal);
      }
      const oneClick = await ctx.app.inject({
        method: 'POST',
        url: `/api/v1/announcement_emails/one_click?token=${encodeURIComponent(bad)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(oneClick.statusCode).toBe(400);
      expect(json(oneClick)).toMatchObject(refusal);
    }
    expect(await announcementEmailsOf(user)).toBe(true);

    const missing = await post('/announcement_emails/unsubscribe', {});
    expect(missing.statusCode).toBe(422);
    expect(await announcementEmailsOf(user)).toBe(true);
  });

  it('one click (RFC 8058) unsubscribes with a form body of either encoding, or none', async () => {
    for (const request of [
      {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      },
      {
        headers: { 'content-type': 'multipart/form-data; boundary=b' },
        payload:
          '--b\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--b--\r\n',
      },
      {},
    ]) {
      const user = await createUser(ctx);
      const response = await ctx.app.inject({
        method: 'POST',
        url: links.oneClickUrl(user.user.id).slice(ctx.config.appUrl.length),
        ...request,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(json(response)).toMatchObject({ status: 'success', data: { announcement_emails: false } });
      expect(await announcementEmailsOf(user)).toBe(false);
    }
  });

  it('refuses the link of an account deleted since', async () => {
    const user = await createUser(ctx);
    const token = links.tokenFor(user.user.id);
    await ctx.database.db.delete(users).where(eq(users.id, user.user.id));
    const response = await post('/announcement_emails/unsubscribe', { token });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toMatchObject(refusal);
  });
});
