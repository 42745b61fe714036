import type { AuthSession, LoginBody, Registration, User } from '@haversack/contracts';
import { authSchema } from './auth-schemas-loader';
import { API_V1, apiRequest } from './http-client';

/** The session endpoints of spec/01 §7 (refresh lives in the HTTP client, which needs it on every 401). */
export async function loginRequest(credentials: LoginBody): Promise<AuthSession> {
  const { data } = await apiRequest(`${API_V1}/auth/login`, {
    method: 'POST',
    body: credentials,
    schema: authSchema((schemas) => schemas.authSessionSchema),
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
    schema: authSchema((schemas) => schemas.authSessionSchema),
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
  const { data } = await apiRequest(`${API_V1}/auth/me`, {
    schema: authSchema((schemas) => schemas.meSchema),
    toast: false,
  });
  return data.user;
}

/** Signed in: the bearer token names the account; signed out: the email does. */
export async function resendVerificationRequest(email?: string): Promise<string> {
  const { data } = await apiRequest(`${API_V1}/auth/resend_verification`, {
    method: 'POST',
    body: email ? { email } : {},
    schema: authSchema((schemas) => schemas.messageSchema),
  });
  return data.message;
}
