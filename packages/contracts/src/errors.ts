/**
 * The error catalogue: spec/01 §8 (client-facing messages and which of them toast) plus the domain codes
 * of DESIGN §3. The server answers with these codes and statuses; the web client shows these messages.
 */
export const errorCatalogue = {
  VALIDATION_ERROR: {
    status: 422,
    type: 'validation_error',
    message: 'Please check your input and try again',
    toast: false,
  },
  RESOURCE_NOT_FOUND: {
    status: 404,
    type: 'not_found',
    message: 'The requested item could not be found.',
    toast: true,
  },
  UNAUTHORIZED: {
    status: 401,
    type: 'authentication_error',
    message: 'Please log in to continue',
    toast: false,
  },
  FORBIDDEN: {
    status: 403,
    type: 'authorization_error',
    message: 'You do not have permission to perform this action.',
    toast: true,
  },
  BAD_REQUEST: {
    status: 400,
    type: 'bad_request',
    message: 'Invalid request. Please check your input.',
    toast: true,
  },
  INTERNAL_SERVER_ERROR: {
    status: 500,
    type: 'server_error',
    message: 'Server error. Please try again later.',
    toast: true,
  },
  INVALID_CREDENTIALS: {
    status: 401,
    type: 'authentication_error',
    message: 'Invalid email or password.',
    toast: true,
  },
  EXPIRED_TOKEN: {
    status: 401,
    type: 'authentication_error',
    message: 'Your session has expired. Please log in again.',
    toast: false,
  },
  REVOKED_TOKEN: {
    status: 401,
    type: 'authentication_error',
    message: 'Your session has been terminated',
    toast: false,
  },
  INVALID_TOKEN: {
    status: 401,
    type: 'authentication_error',
    message: 'Your session is not valid. Please log in again.',
    toast: false,
  },
  RATE_LIMITED: {
    status: 429,
    type: 'rate_limit_error',
    message: 'Too many requests. Please wait a moment.',
    toast: true,
  },
  NETWORK_ERROR: {
    status: 0,
    type: 'network_error',
    message: 'Network connection error. Please check your connection.',
    toast: true,
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    type: 'bad_request',
    message: 'The request is too large.',
    toast: true,
  },
  CONFLICT: {
    status: 409,
    type: 'conflict',
    message: 'This conflicts with the current state. Refresh and try again.',
    toast: true,
  },
  CAPACITY_EXCEEDED: {
    status: 422,
    type: 'business_rule',
    message: 'There is not enough room in that container.',
    toast: true,
  },
  LIMIT_EXCEEDED: {
    status: 403,
    type: 'limit_exceeded',
    message: 'Your plan limit has been reached. Upgrade to do more.',
    toast: true,
  },
  FEATURE_NOT_AVAILABLE: {
    status: 403,
    type: 'feature_not_available',
    message: 'This feature is not included in your plan.',
    toast: true,
  },
  INSUFFICIENT_FUNDS: {
    status: 422,
    type: 'business_rule',
    message: 'Not enough coins to pay for this.',
    toast: true,
  },
  ITEM_OUT_OF_STOCK: {
    status: 409,
    type: 'business_rule',
    message: 'This item is out of stock.',
    toast: true,
  },
  SHOP_CLOSED: { status: 409, type: 'business_rule', message: 'This shop is closed.', toast: true },
  ALREADY_DISTRIBUTED: {
    status: 409,
    type: 'business_rule',
    message: 'This loot has already been distributed.',
    toast: true,
  },
  ACCOUNT_SUSPENDED: {
    status: 403,
    type: 'authentication_error',
    message: 'This account has been suspended. Contact support if you think this is a mistake.',
    toast: true,
  },
  MAINTENANCE_MODE: {
    status: 503,
    type: 'server_error',
    message: 'System is in maintenance mode.',
    toast: true,
  },
  REGISTRATION_CLOSED: {
    status: 403,
    type: 'authorization_error',
    message: 'Registration is closed: new accounts cannot be created right now.',
    toast: true,
  },
  ADMIN_SESSION_EXPIRED: {
    status: 401,
    type: 'admin_session_error',
    message: 'Your admin session has expired. Open the admin area again.',
    toast: false,
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    type: 'server_error',
    message: 'Service unavailable',
    toast: true,
  },
} as const satisfies Record<string, { status: number; type: string; message: string; toast: boolean }>;

export type ErrorCode = keyof typeof errorCatalogue;

export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(errorCatalogue, code);
}

/**
 * spec/01 §8: what the client makes of a failed response that carries no envelope.
 */
export function codeForBareStatus(status: number): { code: string; message: string } {
  if (status >= 500) {
    switch (status) {
      case 502:
        return { code: 'BAD_GATEWAY', message: 'Bad gateway' };
      case 503:
        return { code: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' };
      default:
        return { code: 'INTERNAL_SERVER_ERROR', message: errorCatalogue.INTERNAL_SERVER_ERROR.message };
    }
  }
  switch (status) {
    case 400:
      return { code: 'BAD_REQUEST', message: 'Bad request' };
    case 401:
      return { code: 'UNAUTHORIZED', message: 'Authentication required' };
    case 403:
      return { code: 'FORBIDDEN', message: 'Access forbidden' };
    case 404:
      return { code: 'RESOURCE_NOT_FOUND', message: 'Resource not found' };
    case 422:
      return { code: 'VALIDATION_ERROR', message: 'Validation failed' };
    case 429:
      return { code: 'RATE_LIMITED', message: 'Too many requests' };
    default:
      return { code: `HTTP_${status}`, message: `Request failed with status ${status}` };
  }
}

/** A second request with a key while its first still runs (409, `Retry-After: 1`). */
export const idempotencyInProgress =
  'A request with this Idempotency-Key is still being handled. Try again in a moment.';
/** What the web app says when its change is still running after it waited for it. */
export const idempotencyStillRunning =
  'Your change is taking longer than usual and may still go through. Check before you try it again.';
/** What the web app says for `idempotencyMessages.answerLost`. */
export const idempotencyMadeAnswerLost =
  'Your change was made, but its answer was lost. Check before you make it again.';

/**
 * The refusals of a request that names an `Idempotency-Key` (server plugins/idempotency.ts), and the web
 * app's words for them. The web imports the three above one by one, so that /login's first load carries
 * none of the server's other refusals.
 */
export const idempotencyMessages = {
  invalidKey: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
  reused: 'This Idempotency-Key was already used for a different request. Send a new key for a new change.',
  inProgress: idempotencyInProgress,
  /** A claim whose change committed, but whose process died before it kept the answer (409, no Retry-After). */
  answerLost:
    'The change sent with this Idempotency-Key was made, but its answer was lost. Check the result; send a new key to make it again.',
  stillRunning: idempotencyStillRunning,
  madeAnswerLost: idempotencyMadeAnswerLost,
} as const;
