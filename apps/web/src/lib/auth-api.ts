import {
  type AuthSession,
  authSessionSchema,
  type LoginBody,
  meSchema,
  type Registration,
  type User,
} from '@haversack/contracts';
import { z } from 'zod';
import { API_V1, apiRequest } from './http-client';

/** The session endpoints of spec/01 §7 (refresh lives in the HTTP client, which needs it on every 401). */
export async function loginRequest(credentials: LoginBody): Promise<AuthSession> {
  const { data } = await apiRequest(`${API_V1}/auth/login`, {
    method: 'POST',
    body: credentials,
    schema: authSessionSchema,
    auth: false,
    // The sign-in form shows the refusal in its banner: no second copy in a toast (issue 12).
    toast: false,
  });
  return data;
}

export async function registerRequest(registration: Registration): Promise<AuthSession> {
  const { data } = await apiRequest(`${API_V1}/auth/register`, {
    method: 'POST',
    body: { user: registration },
    schema: authSessionSchema,
    auth: false,
    // The sign-up form shows the refusal on its fields or in its banner.
    toast: false,
  });
  return data;
}

export async function logoutRequest(): Promise<void> {
  await apiRequest(`${API_V1}/auth/logout`, { method: 'DELETE', toast: false });
}

export async function meRequest(): Promise<User> {
  const { data } = await apiRequest(`${API_V1}/auth/me`, { schema: meSchema, toast: false });
  return data.user;
}

const messageSchema = z.object({ message: z.string() });

/** Signed in: the bearer token names the account; signed out: the e-mail does. */
export async function resendVerificationRequest(email?: string): Promise<string> {
  const { data } = await apiRequest(`${API_V1}/auth/resend_verification`, {
    method: 'POST',
    body: email ? { email } : {},
    schema: messageSchema,
  });
  return data.message;
}
