import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from './constants.js';
import { emailMessage, secretText, text } from './fields.js';

/** spec/01 §5: the reset-password rules, reused for registration and password changes. */
export const passwordMessages = {
  length: 'Password must be at least 8 characters',
  uppercase: 'Password must contain at least one uppercase letter',
  lowercase: 'Password must contain at least one lowercase letter',
  digit: 'Password must contain at least one number',
  mismatch: 'Passwords do not match',
  /** Not in spec/01: a "change" to the same password would still sign out every device and revoke the tokens. */
  sameAsCurrent: 'The new password must differ from the current one.',
} as const;

export const usernameMessages = {
  length: 'Username must be 3 to 30 characters',
  characters: 'Username may contain only letters, digits, _ and -',
  reserved: 'This username is reserved. Please choose another.',
} as const;

/**
 * Names a player could pass off as the site's staff in a party's activity and on shared pages. Only
 * sign-up and profile changes refuse them; an operator may still create such an account (`npm run admin`).
 */
const reservedUsernames = new Set([
  'admin',
  'administrator',
  'root',
  'staff',
  'support',
  'moderator',
  'mod',
  'system',
  'haversack',
  'official',
  'security',
  'billing',
  'help',
]);

export function isReservedUsername(username: string): boolean {
  return reservedUsernames.has(username.trim().toLowerCase().replace(/[-_]+/g, ''));
}

export const passwordSchema = secretText({ error: passwordMessages.length })
  .max(200, 'Password must be at most 200 characters')
  .superRefine((value, ctx) => {
    if (value.length < MIN_PASSWORD_LENGTH)
      ctx.addIssue({ code: 'custom', message: passwordMessages.length });
    // Letters of every script count (Пароль, Ωmega): \p{Lu} and \p{Ll}, not A–Z.
    if (!/\p{Lu}/u.test(value)) ctx.addIssue({ code: 'custom', message: passwordMessages.uppercase });
    if (!/\p{Ll}/u.test(value)) ctx.addIssue({ code: 'custom', message: passwordMessages.lowercase });
    if (!/[0-9]/.test(value)) ctx.addIssue({ code: 'custom', message: passwordMessages.digit });
  });

export const emailSchema = text({ error: emailMessage })
  .trim()
  .max(254, emailMessage)
  .pipe(z.email({ error: emailMessage }));

export const usernameSchema = text({ error: usernameMessages.length })
  .trim()
  .min(3, usernameMessages.length)
  .max(30, usernameMessages.length)
  .regex(/^[A-Za-z0-9_-]+$/, usernameMessages.characters);

/** A username a person picks for themselves: the rules above, and none of the reserved names. */
const chosenUsernameSchema = usernameSchema.refine(
  (name) => !isReservedUsername(name),
  usernameMessages.reserved,
);

/** Attach "Passwords do not match" to the confirmation field, as spec/01 §5 says. */
function withConfirmation<T extends z.ZodType<{ password: string; password_confirmation: string }>>(
  schema: T,
) {
  return schema.refine((v) => v.password === v.password_confirmation, {
    message: passwordMessages.mismatch,
    path: ['password_confirmation'],
  });
}

export const registrationSchema = withConfirmation(
  z.object({
    email: emailSchema,
    username: chosenUsernameSchema,
    password: passwordSchema,
    password_confirmation: secretText({ error: passwordMessages.mismatch }),
  }),
);
export type Registration = z.infer<typeof registrationSchema>;
export const registerBodySchema = z.object({ user: registrationSchema });
export type RegisterBody = z.infer<typeof registerBodySchema>;

export const loginBodySchema = z.object({
  email: text({ error: 'Email is required' }).trim().min(1, 'Email is required').max(254, emailMessage),
  password: secretText({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(200, 'Password must be at most 200 characters'),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const refreshBodySchema = z.object({
  refresh_token: text({ error: 'Refresh token is required' }).min(1).max(200, 'This token is not valid'),
});
export type RefreshBody = z.infer<typeof refreshBodySchema>;

export const forgotPasswordBodySchema = z.object({ email: emailSchema });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBodySchema>;

export const resetPasswordFieldsSchema = withConfirmation(
  z.object({
    password: passwordSchema,
    password_confirmation: secretText({ error: passwordMessages.mismatch }),
  }),
);
export const resetPasswordBodySchema = withConfirmation(
  z.object({
    token: text({ error: 'Reset token is required' })
      .min(1, 'Reset token is required')
      .max(200, 'This token is not valid'),
    password: passwordSchema,
    password_confirmation: secretText({ error: passwordMessages.mismatch }),
  }),
);
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

export const verifyEmailBodySchema = z.object({
  token: text({ error: 'Verification token is required' }).min(1).max(200, 'This token is not valid'),
});
export const resendVerificationBodySchema = z.object({ email: emailSchema.optional() });

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  display_name: z.string().nullable(),
  tier: z.string(),
  subscription_status: z.string(),
  tier_upgraded_at: z.string().nullable(),
  email_verified: z.boolean(),
  email_verified_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  admin: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

export const authTokensSchema = z.object({
  token: z.string(),
  expires_at: z.string(),
  refresh_token: z.string(),
});
export type AuthTokens = z.infer<typeof authTokensSchema>;

export const authSessionSchema = authTokensSchema.extend({ user: userSchema });
export type AuthSession = z.infer<typeof authSessionSchema>;

export const meSchema = z.object({ user: userSchema });

/**
 * GET /auth/verify (spec/01 §7 names the path, not its use; docs/decisions.md): checks the bearer token (a
 * session's access token or a personal API token) and says whose it is and until when: null for an API
 * token made to never expire. An invalid, expired, revoked or ended token is the usual 401.
 */
export const tokenVerificationSchema = z.object({
  valid: z.literal(true),
  expires_at: z.string().nullable(),
  user: userSchema,
});
export type TokenVerification = z.infer<typeof tokenVerificationSchema>;

export const profileUpdateBodySchema = z.object({
  user: z.object({
    username: chosenUsernameSchema.optional(),
    email: emailSchema.optional(),
    /** Required when the email changes: a stolen access token alone must not move the account away. */
    current_password: secretText({ error: 'Current password is required' })
      .max(200, 'Password must be at most 200 characters')
      .optional(),
  }),
});
export type ProfileUpdateBody = z.infer<typeof profileUpdateBodySchema>;

/** The link mailed to the old address when the email changes: it puts the old address back. */
export const emailRevertBodySchema = z.object({
  token: text({ error: 'Undo token is required' })
    .min(1, 'Undo token is required')
    .max(200, 'This token is not valid'),
});
export type EmailRevertBody = z.infer<typeof emailRevertBodySchema>;
export const emailRevertResultSchema = z.object({
  message: z.string(),
  email: z.string(),
  /** A fresh password reset token: whoever changed the address may know the password. */
  reset_token: z.string(),
});
export type EmailRevertResult = z.infer<typeof emailRevertResultSchema>;

export const passwordChangeFieldsSchema = withConfirmation(
  z.object({
    current_password: secretText({ error: 'Current password is required' }).min(
      1,
      'Current password is required',
    ),
    password: passwordSchema,
    password_confirmation: secretText({ error: passwordMessages.mismatch }),
  }),
).refine((v) => v.password !== v.current_password, {
  message: passwordMessages.sameAsCurrent,
  path: ['password'],
});
/**
 * The body is the form's fields as they are (unlike a reset's, which adds the token): the same schema under
 * the body's name, as every route names its body.
 * @alias
 */
export const passwordChangeBodySchema = passwordChangeFieldsSchema;
export type PasswordChangeBody = z.infer<typeof passwordChangeBodySchema>;

export const authMessages = {
  forgotPasswordSent:
    "If an account exists with that email, we've sent instructions on how to reset your password.",
  passwordReset: 'Your password has been reset successfully.',
  passwordChanged: 'Password changed successfully!',
  profileUpdated: 'Profile updated successfully!',
  /** A new address saved: it is mailed a link to verify it, and every other sign-in ends with the change. */
  profileEmailChanged: (email: string) =>
    `Profile updated. We sent a link to ${email} to confirm your new address, and signed out your other devices.`,
  resetTokenInvalid: 'The password reset link is invalid or has expired.',
  resetTokenUsed: 'This password reset link has already been used.',
  verificationSent: 'If the address needs verifying, we have sent a new verification link.',
  emailVerified: 'Your email address has been verified.',
  verificationTokenInvalid: 'The verification link is invalid or has expired.',
  loggedOut: 'Signed out.',
  emailTaken: 'Email has already been taken',
  usernameTaken: 'Username has already been taken',
  currentPasswordWrong: 'Current password is incorrect',
  currentPasswordRequired: 'Enter your current password to change your email address',
  emailReverted:
    'Your email address has been restored and every session has been signed out. Choose a new password now.',
  emailRevertInvalid: 'The link to undo the email change is invalid, expired or already used.',
} as const;
