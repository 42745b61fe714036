import { z } from 'zod';

/**
 * GET /users/me/sessions: the devices signed in to the account (one per sign-in, with its rotating refresh
 * tokens), so that a phone left at a friend's table can be signed out from another device.
 */
export const signedInSessionSchema = z.object({
  id: z.string(),
  /** What the browser said it was, summarised: "Chrome on Android", or "Unknown device". */
  device: z.string(),
  user_agent: z.string().nullable(),
  ip_address: z.string().nullable(),
  created_at: z.string(),
  /** Written when the session signs in and each time its access token is renewed (every 15 minutes in use). */
  last_used_at: z.string(),
  /** The session making this request. */
  current: z.boolean(),
});
export type SignedInSession = z.infer<typeof signedInSessionSchema>;

export const signedOutOthersSchema = z.object({ ended: z.number().int().min(0), message: z.string() });
export type SignedOutOthers = z.infer<typeof signedOutOthersSchema>;

const apiTokensKeepWorking = 'Your API tokens keep working.';

export const signedInSessionMessages = {
  apiTokensKeepWorking,
  notFound: 'This device is already signed out.',
  signedOut: (device: string) => `${device} has been signed out.`,
  /**
   * API tokens are not devices: scripts and automations keep working after "sign out all other devices"
   * (a password change or reset is what revokes them), so the answer says so.
   */
  othersSignedOut: (ended: number) =>
    ended === 0
      ? 'No other device was signed in.'
      : `Signed out of ${ended === 1 ? '1 other device' : `${ended} other devices`}. ${apiTokensKeepWorking}`,
  unknownDevice: 'Unknown device',
  /** What a device signed out from another one is told when it next tries to renew its session. */
  signedOutElsewhere: 'You were signed out from another device. Sign in again to continue.',
  /** The same, when the password was changed on another device (every other sign-in ends with it). */
  passwordChangedElsewhere: 'Your password was changed on another device. Sign in again with the new one.',
  /** A reset by a mailed link ends every sign-in, the one that asked for it too: nothing was "elsewhere". */
  passwordReset: 'Your password was reset from a link sent by email. Sign in again with the new one.',
  /** A new email address saved on another device ends every other sign-in. */
  emailChangedElsewhere: 'Your email address was changed on another device. Sign in again to continue.',
  /** The undo link mailed to the old address ends every sign-in. */
  emailChangeReverted: 'A change of your email address was undone. Sign in again to continue.',
  /** An admin's "sign out everywhere" on the account. */
  revokedByAdmin: 'An administrator signed you out. Sign in again to continue.',
} as const;
