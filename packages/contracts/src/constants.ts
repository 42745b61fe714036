/** spec/01 §9 business constants, shared by the server and the web client. */
export const HTTP_TIMEOUT_MS = 10_000;

export const QUERY_STALE_MS = 5 * 60_000;
export const QUERY_GC_MS = 10 * 60_000;
export const QUERY_RETRY = 1;
export const SUBSCRIPTION_STALE_MS = 5 * 60_000;
export const SUBSCRIPTION_GC_MS = 10 * 60_000;
export const INVENTORY_USAGE_STALE_MS = 30_000;
export const INVENTORY_USAGE_GC_MS = 60_000;

export const TOKEN_CHECK_INTERVAL_MS = 60_000;
export const TOKEN_REFRESH_BUFFER_MS = 120_000;
export const INACTIVITY_TIMEOUT_MS = 30 * 60_000;
export const ADMIN_SESSION_CHECK_MS = 5 * 60_000;

export const MIN_PASSWORD_LENGTH = 8;
export const RESET_REDIRECT_DELAY_MS = 2_000;

export const TOAST_DEFAULT_MS = 5_000;
export const TOAST_SUCCESS_MS = 3_000;
export const TOAST_ERROR_MS = 5_000;
export const TOAST_SESSION_EXPIRED_MS = 7_000;
export const TOAST_TIP_MS = 6_000;

export const CABLE_STALE_THRESHOLD_S = 6;
export const CABLE_RECONNECT_BACKOFF_RATE = 0.15;
export const CABLE_REOPEN_DELAY_MS = 500;
export const CABLE_SUBSCRIPTION_RETRY_MS = 500;

export const PERSIST_TIMEOUT_MS = 5_000;

export const CHECKOUT_DEFAULT_RETURN_PATH = '/subscription/success';
export const BILLING_RETURN_PATH = '/subscription';

export const DEFAULT_WEIGHT_UNIT = 'lbs';
export const DEFAULT_CURRENCY = 'gp';

/** Server-side token lifetimes (ours: the spec leaves them open). */
export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 60 * 60;
export const PASSWORD_RESET_TTL_S = 60 * 60;
export const EMAIL_VERIFICATION_TTL_S = 7 * 24 * 60 * 60;

/** DESIGN §4: where a change came from, on every ledger row and real-time event. */
/** What a device says when its account was deleted: on that device, or told live on another (cable.ts). */
export const ACCOUNT_DELETED_MESSAGE = 'Your account has been deleted.';

export const changeSources = ['web', 'discord', 'api', 'admin', 'system'] as const;
export type ChangeSource = (typeof changeSources)[number];
