import { type ResetPasswordBody, userSchema } from '@haversack/contracts';
import { z } from 'zod';
import { API_V1, apiRequest, isApiError } from '../../../lib/http-client';

const messageSchema = z.object({ message: z.string() });
const verifiedSchema = z.object({ message: z.string(), user: userSchema.optional() });

/**
 * Password recovery and email verification (spec/01 §7). These screens show their own banners and toasts
 * (spec/01 §8), so the automatic catalogue toast is turned off.
 */
/**
 * spec/01 §7: "The forgot and reset screens read the failure text from a field named error in the response
 * data." The server's recovery answers carry it; an answer without it (a gateway's, no answer at all) gives
 * null, and the screen shows its own fallback rather than another message.
 */
export function recoveryFailureReason(error: unknown): string | null {
  const data = isApiError(error) ? error.data : undefined;
  const reason = typeof data === 'object' && data !== null && 'error' in data ? data.error : undefined;
  return typeof reason === 'string' && reason !== '' ? reason : null;
}

export async function requestPasswordReset(email: string): Promise<string> {
  const { data } = await apiRequest(`${API_V1}/auth/forgot_password`, {
    method: 'POST',
    body: { email },
    schema: messageSchema,
    auth: false,
    toast: false,
  });
  return data.message;
}

export async function resetPassword(body: ResetPasswordBody): Promise<string> {
  const { data } = await apiRequest(`${API_V1}/auth/reset_password`, {
    method: 'POST',
    body,
    schema: messageSchema,
    auth: false,
    toast: false,
  });
  return data.message;
}

export type EmailVerification = z.infer<typeof verifiedSchema>;

const verifications = new Map<string, Promise<EmailVerification>>();

/**
 * A verification token works once: the page may mount twice (StrictMode, a re-render), so every caller
 * with the same token shares the one request.
 */
export function verifyEmailOnce(token: string): Promise<EmailVerification> {
  let pending = verifications.get(token);
  if (!pending) {
    pending = apiRequest(`${API_V1}/auth/verify_email`, {
      method: 'POST',
      body: { token },
      schema: verifiedSchema,
      toast: false,
    }).then(({ data }) => data);
    verifications.set(token, pending);
  }
  return pending;
}

const revertSchema = z.object({ message: z.string(), email: z.string(), reset_token: z.string() });
export type EmailRevert = z.infer<typeof revertSchema>;
const reverts = new Map<string, Promise<EmailRevert>>();

/** The undo link mailed to the old address works once; like verification, callers share one request. */
export function revertEmailChangeOnce(token: string): Promise<EmailRevert> {
  let pending = reverts.get(token);
  if (!pending) {
    pending = apiRequest(`${API_V1}/users/email/revert`, {
      method: 'POST',
      body: { token },
      schema: revertSchema,
      auth: false,
      toast: false,
    }).then(({ data }) => data);
    reverts.set(token, pending);
  }
  return pending;
}
