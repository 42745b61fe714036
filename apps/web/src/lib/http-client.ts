import {
  type ApiErrorBody,
  codeForBareStatus,
  type ErrorCode,
  errorCatalogue,
  type FieldError,
  HTTP_TIMEOUT_MS,
  idempotencyInProgress,
  idempotencyMadeAnswerLost,
  idempotencyStillRunning,
  isErrorCode,
  TOAST_SESSION_EXPIRED_MS,
} from '@haversack/contracts';
import { authSchema } from './auth-schemas-loader';
import { browserTurn } from './browser-turn';
import { IDEMPOTENCY_HEADER, newIdempotencyKey } from './idempotency-key';
import { noteSessionEnd, recentSessionEnd, signedOutHere } from './session-end-note';
import { emitSessionExpired } from './session-events';
import { TAB_HEADER, tabId } from './tab-id';
import { withTabLock } from './tab-lock';
import { dismissToast, toast } from './toast';
import { tokenStorage } from './token-storage';
import {
  changeFingerprint,
  forgetUnanswered,
  keyOfUnanswered,
  rememberUnanswered,
} from './unanswered-changes';
import { currentPlace, planRefusalMessage, upgradeLinkLabel, upgradePathFor } from './upgrade-link';

/** Everything is under /api/v1 except the preferences endpoints and /cable (DESIGN §3). */
export const API_V1 = '/api/v1';

const baseUrl: string = import.meta.env.VITE_API_BASE_URL ?? '';

/**
 * spec/01 §4: a 401 on these requests never triggers a refresh: they are the login family and logout,
 * where a 401 is the answer itself (bad password, dead refresh token).
 */
const noRefreshPaths = new Set(
  ['login', 'register', 'refresh', 'logout', 'forgot_password', 'reset_password', 'verify_email'].map(
    (name) => `${API_V1}/auth/${name}`,
  ),
);

/** A failed call, with the catalogue's user-facing message (spec/01 §8). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: string;
  readonly status: number;
  readonly type: string;
  readonly details: FieldError[];
  /** The server's own message, when the answer carried an envelope. */
  readonly serverMessage: string | null;
  /** The envelope's `data`, when it had one: password recovery's reason, `data.error` (spec/01 §7). */
  readonly data: unknown;

  constructor(init: {
    code: string;
    status: number;
    message: string;
    type?: string;
    details?: FieldError[];
    serverMessage?: string | null;
    data?: unknown;
    cause?: unknown;
  }) {
    super(init.message, { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.type = init.type ?? 'error';
    this.details = init.details ?? [];
    this.serverMessage = init.serverMessage ?? null;
    this.data = init.data;
  }

  /** spec/01 §8: catalogue codes with toast:true toast; VALIDATION_ERROR never does; other codes do. */
  get toastable(): boolean {
    return isErrorCode(this.code) ? errorCatalogue[this.code].toast : true;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * The record a page asked for by its id is not there for this user: a 404 (which is also what a record
 * hidden from them answers), or an id in the address that is not one (a mistyped or cut-off link).
 */
export function isRecordNotFound(error: unknown): boolean {
  return (
    isApiError(error) &&
    (error.status === 404 ||
      (error.code === 'VALIDATION_ERROR' && error.details.some((detail) => detail.field === 'id')))
  );
}

/**
 * spec/01 §8: the eleven codes whose message the client shows from the catalogue. "Any other code shows
 * the server message": the domain codes the catalogue also lists (CONFLICT, CAPACITY_EXCEEDED, ...) keep
 * their entry for the status and the toast flag, but the server's words say what actually happened
 * ("Already invited to this party").
 */
const catalogueMessageCodes: ReadonlySet<string> = new Set<ErrorCode>([
  'VALIDATION_ERROR',
  'RESOURCE_NOT_FOUND',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'BAD_REQUEST',
  'INTERNAL_SERVER_ERROR',
  'INVALID_CREDENTIALS',
  'EXPIRED_TOKEN',
  'REVOKED_TOKEN',
  'RATE_LIMITED',
  'NETWORK_ERROR',
]);

/** Build the error for a code: the eleven codes show the catalogue message, others the server's. */
function errorFor(code: string, status: number, rawMessage: string, extra: Partial<ApiError> = {}): ApiError {
  const message =
    isErrorCode(code) && catalogueMessageCodes.has(code) ? errorCatalogue[code].message : rawMessage;
  return new ApiError({
    code,
    status,
    message,
    type: extra.type ?? (isErrorCode(code) ? errorCatalogue[code].type : 'error'),
    details: extra.details ?? [],
    serverMessage: extra.serverMessage ?? null,
    data: extra.data,
  });
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON body; sent as is. */
  body?: unknown;
  /** Send the bearer token when one is stored (default true). */
  auth?: boolean;
  /** Toast the error when its catalogue entry says so (default true). Callers that show their own say false. */
  toast?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Extra request headers (the admin area's X-Admin-Session). */
  headers?: Record<string, string>;
}

export interface ApiResponse<T> {
  data: T;
  meta?: unknown;
  message?: string;
}

// The envelopes are read by hand, not with the contracts' zod schemas: the client makes requests without
// loading zod, so /login does not carry it (issue 13 §1). http-client.test.ts holds these readers to the
// contracts' errorEnvelopeSchema.
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isOptional = (value: unknown, check: (value: unknown) => boolean) =>
  value === undefined || check(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The success envelope of DESIGN §3: `{ status: 'success', data, meta?, message? }`, or null. */
function readSuccessEnvelope(body: unknown): ApiResponse<unknown> | null {
  if (!isRecord(body) || body.status !== 'success' || !isOptional(body.message, isString)) return null;
  return { data: body.data, meta: body.meta, message: body.message as string | undefined };
}

function readFieldError(value: unknown): FieldError | null {
  if (!isRecord(value) || !isString(value.field) || !isString(value.message)) return null;
  const { resource, feature, limit, used } = value;
  if (!isOptional(resource, isString) || !isOptional(feature, isString) || !isOptional(used, isNumber))
    return null;
  if (!isOptional(limit, (v) => v === null || isNumber(v))) return null;
  const detail: FieldError = { field: value.field, message: value.message };
  if (resource !== undefined) detail.resource = resource as string;
  if (feature !== undefined) detail.feature = feature as string;
  if (limit !== undefined) detail.limit = limit as number | null;
  if (used !== undefined) detail.used = used as number;
  return detail;
}

/** The error of an error envelope (`{ status: 'error', error: {...} }`, DESIGN §3), or null. */
export function readErrorEnvelope(body: unknown): ApiErrorBody | null {
  if (!isRecord(body) || body.status !== 'error' || !isRecord(body.error)) return null;
  const { type, code, message, details, status } = body.error;
  if (!isString(type) || !isString(code) || !isString(message)) return null;
  if (typeof status !== 'number' || !Number.isSafeInteger(status)) return null;
  const error: ApiErrorBody = { type, code, message, status };
  if (details === undefined) return error;
  if (!Array.isArray(details)) return null;
  const read = details.map(readFieldError);
  if (read.some((detail) => detail === null)) return null;
  error.details = read as FieldError[];
  return error;
}

/**
 * What apiRequest validates an answer's `data` with: a contracts schema (zod), or any reader with the same
 * `safeParse` (the sign-in page's, which do without zod).
 */
export interface AnswerSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: unknown };
}

/**
 * Call the API. Parses the envelope, validates `data` with `schema`, and turns every failure into an
 * ApiError. A 401 on a non-auth request refreshes the session once (shared by concurrent callers) and
 * retries the request once. The schema may be a promise (its chunk still loading): the request does not
 * wait for it, only the validation does.
 */
export function apiRequest<T>(
  path: string,
  options: RequestOptions & { schema: AnswerSchema<T> | PromiseLike<AnswerSchema<T>> },
): Promise<ApiResponse<T>>;
export function apiRequest(path: string, options?: RequestOptions): Promise<ApiResponse<unknown>>;
export async function apiRequest(
  path: string,
  options: RequestOptions & { schema?: AnswerSchema<unknown> | PromiseLike<AnswerSchema<unknown>> } = {},
): Promise<ApiResponse<unknown>> {
  const schema = options.schema === undefined ? undefined : Promise.resolve(options.schema);
  // Failing before the answer comes, the request reports its own error; the schema's is then not news.
  schema?.catch(() => undefined);
  try {
    const response = await sendChange(path, options);
    if (!schema) return response;
    const parsed = (await schema).safeParse(response.data);
    if (!parsed.success) {
      throw new ApiError({
        code: 'INVALID_RESPONSE',
        status: 200,
        message: 'The server sent an unexpected response. Please try again later.',
        cause: parsed.error,
      });
    }
    return { ...response, data: parsed.data };
  } catch (error) {
    const apiError = isApiError(error) ? error : unknownError(error);
    if (options.toast !== false && apiError.toastable) toastError(apiError);
    throw apiError;
  }
}

/** How long a change waits before it is sent again after its connection dropped. */
export const CHANGE_RETRY_DELAY_MS = 800;
/** How long, after that, it waits for a first request the server is still running (asking each second). */
export const CHANGE_WAIT_MS = 20_000;

const stillRunning = (error: unknown) =>
  isApiError(error) && error.code === 'CONFLICT' && error.message === idempotencyInProgress;

/**
 * A change that got no answer (even after its resend) or was still running when the app stopped waiting:
 * the server may have made it. Sent again unchanged, it goes with the same key and is not made twice.
 */
export function outcomeUnknown(error: unknown): boolean {
  return (
    isApiError(error) &&
    (error.code === 'NETWORK_ERROR' ||
      stillRunning(error) ||
      (error.code === 'CONFLICT' && error.message === idempotencyStillRunning))
  );
}
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A key's conflict in the words a player reads: the server's name the header, which players never see.
 * A change still running is the wait's own "taking longer than usual"; the other (`answerLost`: made,
 * but its server stopped before keeping the answer) says the change was made.
 */
function inPlayersWords(error: unknown): unknown {
  if (!isApiError(error) || error.code !== 'CONFLICT' || !error.message.includes('Idempotency-Key'))
    return error;
  const message = stillRunning(error) ? idempotencyStillRunning : idempotencyMadeAnswerLost;
  return new ApiError({ code: 'CONFLICT', status: 409, message, cause: error });
}

/**
 * How long a change left without an answer while the browser is offline waits for the connection to come
 * back, to be sent again with its key (the server keeps a key a day, this tab ten minutes).
 */
export const CHANGE_OFFLINE_WAIT_MS = 2 * 60_000;
/** Said while a change waits for the connection: it is not a failure, and the real outcome follows. */
export const waitingForConnectionMessage =
  'No connection. Your change will be sent as soon as the connection is back.';

const browserOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/** Resolves true when the browser is back online, false at the deadline or when the caller gives up. */
function connectionBack(deadline: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (!browserOffline()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (back: boolean) => {
      clearTimeout(timer);
      window.removeEventListener('online', onOnline);
      signal?.removeEventListener('abort', onAbort);
      resolve(back);
    };
    const onOnline = () => done(true);
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(false), Math.max(0, deadline - Date.now()));
    window.addEventListener('online', onOnline);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A read is sent once. A signed-in change carries an Idempotency-Key and, when its connection drops (a
 * phone on the table's Wi-Fi, a 10 s timeout), is sent once more with the same key: the server makes it
 * once, so a change whose answer was lost is not made twice, and one that never arrived is made now. While
 * the first is still running there, it asks again each second for up to 20 s; past that it says the change
 * may still go through. When the resend fails too and the browser says it is offline, the change waits for
 * the connection (up to 2 minutes, saying so in a toast) and is sent again with the same key as soon as it
 * is back, so its caller learns the real outcome rather than a failure that may not be one. A change left
 * without an answer keeps its key: asked for again (the same body to the same path), it is the same
 * change, and the server answers it without making it twice.
 */
async function sendChange(path: string, options: RequestOptions): Promise<ApiResponse<unknown>> {
  const method = options.method ?? 'GET';
  const signedIn = options.auth !== false && tokenStorage.getAccessToken() !== null;
  if (method === 'GET' || !signedIn || noRefreshPaths.has(path)) return send(path, options, false);
  const fingerprint = changeFingerprint(method, path, options.body);
  const key = keyOfUnanswered(fingerprint) ?? newIdempotencyKey();
  const keyed = { ...options, headers: { [IDEMPOTENCY_HEADER]: key, ...options.headers } };
  // Whatever the server answered, the change is settled; without an answer it may have been made.
  const settled = (response: ApiResponse<unknown>) => {
    forgetUnanswered(fingerprint);
    return response;
  };
  const unsettled = (error: unknown): never => {
    if (outcomeUnknown(error)) rememberUnanswered(fingerprint, key);
    else forgetUnanswered(fingerprint);
    throw inPlayersWords(error);
  };
  try {
    return settled(await send(path, keyed, false));
  } catch (error) {
    // The key's first request (an earlier press whose answer was lost) is still running: wait for it.
    if (stillRunning(error) && !options.signal?.aborted) {
      try {
        await pause(1_000);
        return settled(await resendWhileRunning(path, keyed));
      } catch (waited) {
        return unsettled(waited);
      }
    }
    if (!isApiError(error) || error.code !== 'NETWORK_ERROR' || options.signal?.aborted)
      return unsettled(error);
  }
  let deadline: number | undefined;
  let waitingToast: string | undefined;
  try {
    for (;;) {
      await pause(CHANGE_RETRY_DELAY_MS);
      try {
        return settled(await resendWhileRunning(path, keyed));
      } catch (error) {
        const lost = isApiError(error) && error.code === 'NETWORK_ERROR';
        if (!lost || options.signal?.aborted || !browserOffline()) return unsettled(error);
        deadline ??= Date.now() + CHANGE_OFFLINE_WAIT_MS;
        waitingToast ??= toast.info(waitingForConnectionMessage, CHANGE_OFFLINE_WAIT_MS);
        if (!(await connectionBack(deadline, options.signal))) return unsettled(error);
      }
    }
  } finally {
    if (waitingToast !== undefined) dismissToast(waitingToast);
  }
}

/** The change sent again; while the server still runs the first, asked about each second for up to 20 s. */
async function resendWhileRunning(path: string, keyed: RequestOptions): Promise<ApiResponse<unknown>> {
  for (let waited = 0; ; waited += 1_000) {
    try {
      return await send(path, keyed, false);
    } catch (error) {
      if (!stillRunning(error)) throw error;
      if (waited >= CHANGE_WAIT_MS || keyed.signal?.aborted) {
        throw new ApiError({
          code: 'CONFLICT',
          status: 409,
          message: idempotencyStillRunning,
          cause: error,
        });
      }
    }
    await pause(1_000);
  }
}

/** Issue 3: a plan refusal's toast says what was hit and links to the upgrade page for it. */
function toastError(error: ApiError): void {
  const upgradePath = upgradePathFor(error, currentPlace());
  if (upgradePath) {
    toast.error(planRefusalMessage(error), undefined, { label: upgradeLinkLabel, href: upgradePath });
  } else {
    toast.error(error.message);
  }
}

/**
 * spec/01 §8 "Failed to save. Please try again." / "Failed to delete. Please try again.": for a failure
 * nothing else explains. An API refusal already has its words (the client's toast of the catalogue or
 * server message, or the form's alert and fields); anything else (a failure outside the API) gets the
 * general one.
 */
export function toastUnexplainedFailure(error: unknown, message: string): void {
  if (!isApiError(error)) toast.error(message);
}

function unknownError(cause: unknown): ApiError {
  return new ApiError({
    code: 'UNKNOWN_ERROR',
    status: 0,
    message: 'Something went wrong. Please try again.',
    cause,
  });
}

/** The response of a request, after one refresh-and-retry on a 401 (spec/01 §4). */
async function fetchAuthorized(
  path: string,
  options: RequestOptions,
  accept: string,
  isRetry: boolean,
): Promise<{ response: Response; body?: unknown }> {
  const token = options.auth === false ? null : tokenStorage.getAccessToken();
  const headers: Record<string, string> = { ...options.headers, Accept: accept };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  // A change's live echo names the tab that asked for it (lib/tab-id.ts).
  if ((options.method ?? 'GET') !== 'GET') headers[TAB_HEADER] = tabId;

  const response = await fetchWithTimeout(`${baseUrl}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
    timeoutMs: options.timeoutMs ?? HTTP_TIMEOUT_MS,
  });

  // A token this tab signed out with is refused as it should be: nothing to refresh, no one to tell.
  if (response.status === 401 && token && token !== signedOutHere && !isRetry && !noRefreshPaths.has(path)) {
    const body = await readJson(response);
    // An expired admin session is not an expired sign-in: refreshing the access token would not help.
    if (readErrorEnvelope(body)?.code === 'ADMIN_SESSION_EXPIRED') {
      return { response, body };
    }
    // Another caller may have refreshed while this request was in flight: then just retry with the new token.
    const current = tokenStorage.getAccessToken();
    const refreshed = (current !== null && current !== token) || (await refreshSession());
    if (refreshed) return fetchAuthorized(path, options, accept, true);
    // The session could not be renewed and has ended (its tokens are gone; a refresh that only lost its
    // connection keeps them). A change refused with it was not made: the form that sent it goes with the
    // session, so the toast, which outlives the move to the sign-in page, says so there.
    if ((options.method ?? 'GET') !== 'GET' && tokenStorage.getRefreshToken() === null) {
      toast.error(changeNotMadeSessionEndedMessage, TOAST_SESSION_EXPIRED_MS);
    }
    return { response, body };
  }
  return { response };
}

async function send(path: string, options: RequestOptions, isRetry: boolean): Promise<ApiResponse<unknown>> {
  const fetched = await fetchAuthorized(path, options, 'application/json', isRetry);
  const { response } = fetched;

  if (response.status === 204) return { data: undefined };

  const body = 'body' in fetched ? fetched.body : await readJson(response);
  if (!response.ok) throw errorFromResponse(response.status, body);

  const envelope = readSuccessEnvelope(body);
  if (!envelope) {
    throw new ApiError({
      code: 'INVALID_RESPONSE',
      status: response.status,
      message: 'The server sent an unexpected response. Please try again later.',
    });
  }
  return envelope;
}

/**
 * Download a file the API answers (a CSV export) with the same authentication, refresh and errors as
 * `apiRequest`; answers the file and the name the server suggests. The 10 s timeout (spec/01 §7) covers
 * reaching the headers only: a big export streams its body for longer, and is read to its end.
 */
export async function apiDownload(
  path: string,
  options: RequestOptions = {},
): Promise<{ blob: Blob; filename: string | null; headers: Headers }> {
  try {
    const fetched = await fetchAuthorized(path, options, '*/*', false);
    const { response } = fetched;
    if (!response.ok) {
      throw errorFromResponse(response.status, 'body' in fetched ? fetched.body : await readJson(response));
    }
    const disposition = response.headers.get('content-disposition') ?? '';
    const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? null;
    return { blob: await response.blob(), filename, headers: response.headers };
  } catch (error) {
    const apiError = isApiError(error) ? error : unknownError(error);
    if (options.toast !== false && apiError.toastable) toastError(apiError);
    throw apiError;
  }
}

interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal | undefined;
  timeoutMs: number;
}

/** spec/01 §7: requests time out after 10 s; a timeout or a dropped connection is a NETWORK_ERROR. */
async function fetchWithTimeout(url: string, init: FetchInit): Promise<Response> {
  // Its own task (see browserTurn): the queries of a screen that mounts start their requests in React's commit.
  const turn = browserTurn();
  if (turn) await turn;
  const controller = new AbortController();
  // A caller that gave up while the request waited for its turn: fetch fails at once, as an abort.
  if (init.signal?.aborted) controller.abort();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, init.timeoutMs);
  const abortFromCaller = () => controller.abort();
  init.signal?.addEventListener('abort', abortFromCaller, { once: true });
  try {
    return await globalThis.fetch(url, {
      method: init.method,
      headers: init.headers,
      body: init.body,
      signal: controller.signal,
      credentials: 'same-origin',
    });
  } catch (cause) {
    if (init.signal?.aborted && !timedOut) throw cause;
    const network = errorCatalogue.NETWORK_ERROR;
    throw new ApiError({
      code: 'NETWORK_ERROR',
      status: 0,
      type: network.type,
      message: network.message,
      serverMessage: timedOut ? 'The request timed out.' : null,
      cause,
    });
  } finally {
    clearTimeout(timer);
    init.signal?.removeEventListener('abort', abortFromCaller);
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function errorFromResponse(status: number, body: unknown): ApiError {
  const envelope = readErrorEnvelope(body);
  if (envelope) {
    const { code, message, details, type } = envelope;
    const data = isRecord(body) ? body.data : undefined;
    return errorFor(code, status, message, { details: details ?? [], type, serverMessage: message, data });
  }
  // spec/01 §8: an answer without an envelope is named by its status alone.
  const bare = codeForBareStatus(status);
  return errorFor(bare.code, status, bare.message);
}

/** Said of a change refused because its session could not be renewed (refresh token revoked or expired). */
export const changeNotMadeSessionEndedMessage = 'Your change was not made. Sign in and make it again.';

/** What a tab says when another tab of the same browser ended the session they share. */
export const signedOutInAnotherTab = 'You signed out in another tab. Sign in again to continue.';

let refreshInFlight: Promise<boolean> | null = null;

/**
 * Exchange the refresh token for a new pair. Concurrent callers share one request (refresh tokens rotate
 * on every use, so a second parallel refresh would look like token reuse to the server).
 * When the server refuses, the session is over: everything is cleared, the session-expired toast shows
 * and the session-expired event fires. A network failure keeps the tokens for a later attempt.
 */
export function refreshSession(): Promise<boolean> {
  refreshInFlight ??= runRefresh().finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

async function runRefresh(): Promise<boolean> {
  const refreshTokenSeen = tokenStorage.getRefreshToken();
  // Tabs share localStorage: a lock across tabs keeps two of them from spending the same refresh token (which
  // the server would treat as reuse and answer by ending the session). Inside the lock, a refresh token that
  // changed meanwhile means another tab has already refreshed. The lease outlasts the exchange's timeout.
  return withTabLock(
    'haversack-token-refresh',
    () => exchangeRefreshToken(refreshTokenSeen),
    HTTP_TIMEOUT_MS + 5_000,
  );
}

async function exchangeRefreshToken(refreshTokenSeen: string | null): Promise<boolean> {
  const refreshToken = tokenStorage.getRefreshToken();
  const ended = recentSessionEnd();
  if (!refreshToken || ended) {
    // Tabs share the tokens: asked to renew a session this tab holds, and none left, means another tab
    // of this browser ended it (the periodic check or a request here finds it out), for the reason it noted.
    // A session noted as ending is being revoked by its sign-out (here or in another tab: a laptop waking
    // runs the token check and the inactivity sign-out at once): the refresh would only be refused (401).
    expireSession(ended ?? signedOutInAnotherTab);
    return false;
  }
  if (refreshTokenSeen && refreshToken !== refreshTokenSeen) return true;
  try {
    const { data } = await apiRequest(`${API_V1}/auth/refresh`, {
      method: 'POST',
      body: { refresh_token: refreshToken },
      schema: authSchema((schemas) => schemas.authTokensSchema),
      auth: false,
      toast: false,
    });
    tokenStorage.setTokens(data);
    return true;
  } catch (error) {
    if (isApiError(error) && (error.code === 'NETWORK_ERROR' || error.status >= 500)) return false;
    // A session ended for a reason of its own says it in the server's words ("You were signed out from
    // another device…"); any other refusal reads as the session having expired, as before.
    // A session another tab of this browser ended just before (a sign-out there revokes it before it
    // clears the shared tokens) says so, as that tab noted.
    const reason =
      isApiError(error) &&
      error.code === 'REVOKED_TOKEN' &&
      error.serverMessage !== errorCatalogue.REVOKED_TOKEN.message
        ? error.serverMessage
        : isApiError(error) && (error.code === 'REVOKED_TOKEN' || error.code === 'INVALID_TOKEN')
          ? recentSessionEnd()
          : null;
    expireSession(reason ?? undefined);
    return false;
  }
}

function expireSession(message: string = errorCatalogue.EXPIRED_TOKEN.message): void {
  // The other tabs will find the session gone: they say why in the same words.
  noteSessionEnd(message);
  tokenStorage.clear();
  toast.sessionExpired(message);
  emitSessionExpired();
}
