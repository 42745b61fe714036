import { errorCatalogue, errorEnvelopeSchema, idempotencyMessages } from '@haversack/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { useUiStore } from '../stores/ui-store';
import { authHeaderOf, buildTokens, failure, jsonResponse, mockFetch, success } from '../test/fixtures';
import {
  API_V1,
  ApiError,
  apiDownload,
  apiRequest,
  CHANGE_OFFLINE_WAIT_MS,
  CHANGE_RETRY_DELAY_MS,
  CHANGE_WAIT_MS,
  changeNotMadeSessionEndedMessage,
  readErrorEnvelope,
  signedOutInAnotherTab,
  toastUnexplainedFailure,
  waitingForConnectionMessage,
} from './http-client';
import { noteSessionEnd } from './session-end-note';
import { onSessionExpired } from './session-events';
import { tabId } from './tab-id';
import { toast } from './toast';
import { tokenStorage } from './token-storage';

const itemSchema = z.object({ name: z.string() });

function signInStorage(token = 'access-old', refresh = 'refresh-old') {
  tokenStorage.setTokens(buildTokens({ token, refresh_token: refresh }));
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('apiRequest: envelopes', () => {
  it('returns the data of a success envelope, validated by the schema, with meta and message', async () => {
    mockFetch(() =>
      jsonResponse(200, { status: 'success', data: { name: 'Rope' }, meta: { page: 1 }, message: 'ok' }),
    );
    const result = await apiRequest(`${API_V1}/items/1`, { schema: itemSchema });
    expect(result).toEqual({ data: { name: 'Rope' }, meta: { page: 1 }, message: 'ok' });
  });

  it('sends JSON bodies and the bearer token when one is stored', async () => {
    signInStorage('access-abc');
    const fetchMock = mockFetch(() => success({ name: 'Torch' }, 201));
    await apiRequest(`${API_V1}/items`, { method: 'POST', body: { name: 'Torch' }, schema: itemSchema });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/items');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"name":"Torch"}');
    expect(authHeaderOf(init)).toBe('Bearer access-abc');
  });

  it('answers a 204 with no data', async () => {
    mockFetch(() => new Response(null, { status: 204 }));
    await expect(apiRequest(`${API_V1}/items/1`, { method: 'DELETE' })).resolves.toEqual({ data: undefined });
  });

  it('sends the request without waiting for a schema still loading, and validates with it', async () => {
    const fetchMock = mockFetch(() => success({ name: 'Rope' }));
    let schemaLoaded: (schema: typeof itemSchema) => void = () => undefined;
    const loading = new Promise<typeof itemSchema>((resolve) => {
      schemaLoaded = resolve;
    });
    const request = apiRequest(`${API_V1}/items/1`, { schema: loading });
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    schemaLoaded(itemSchema);
    await expect(request).resolves.toMatchObject({ data: { name: 'Rope' } });

    mockFetch(() => success({ title: 'not a name' }));
    const refused = await caught(
      apiRequest(`${API_V1}/items/1`, { schema: Promise.resolve(itemSchema), toast: false }),
    );
    expect(refused.code).toBe('INVALID_RESPONSE');
  });

  it('reports the request’s own failure when its schema could not load either', async () => {
    mockFetch(() => failure(404, 'RESOURCE_NOT_FOUND', 'no such item'));
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const error = await caught(
        apiRequest(`${API_V1}/items/1`, { schema: Promise.reject(new Error('offline')), toast: false }),
      );
      expect(error.code).toBe('RESOURCE_NOT_FOUND');
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('reads error envelopes as the contracts’ errorEnvelopeSchema does, without zod', () => {
    const error = { type: 'error', code: 'LIMIT_EXCEEDED', message: 'Too many', status: 403 };
    const detail = { field: 'characters', message: 'Limit', resource: 'characters', limit: 1, used: 1 };
    const bodies: unknown[] = [
      { status: 'error', error },
      { status: 'error', error: { ...error, details: [detail, { field: 'name', message: 'Bad' }] } },
      { status: 'error', error: { ...error, details: [{ ...detail, limit: null, extra: true }] }, more: 1 },
      { status: 'error', error: { ...error, details: [{ ...detail, limit: '1' }] } },
      { status: 'error', error: { ...error, details: [{ field: 'name' }] } },
      { status: 'error', error: { ...error, details: {} } },
      { status: 'error', error: { ...error, status: 403.5 } },
      { status: 'error', error: { ...error, status: '403' } },
      { status: 'error', error: { ...error, code: undefined } },
      { status: 'error', error: { ...error, type: 1 } },
      { status: 'error', error: { ...error, used: Number.NaN } },
      { status: 'error', error: { ...error, details: [{ ...detail, used: Number.POSITIVE_INFINITY }] } },
      { status: 'success', error },
      { status: 'error', error: [] },
      { status: 'error' },
      [],
      null,
      'error',
    ];
    for (const body of bodies) {
      const bySchema = errorEnvelopeSchema.safeParse(body);
      expect(readErrorEnvelope(body), JSON.stringify(body)).toEqual(
        bySchema.success ? bySchema.data.error : null,
      );
    }
  });

  it('refuses data that does not match the schema', async () => {
    mockFetch(() => success({ title: 'not a name' }));
    const error = await caught(apiRequest(`${API_V1}/items/1`, { schema: itemSchema, toast: false }));
    expect(error.code).toBe('INVALID_RESPONSE');
  });
});

describe('apiRequest: the tab that asks', () => {
  it('names this tab on a change, so that its live echo can be told apart, and not on a read', async () => {
    const fetchMock = mockFetch(() => success({}));
    await apiRequest(`${API_V1}/item_instances`, { method: 'POST', body: {} });
    await apiRequest(`${API_V1}/item_instances/1`);
    const tabs = fetchMock.mock.calls.map(
      ([, init]) => (init?.headers as Record<string, string> | undefined)?.['X-Haversack-Tab'],
    );
    expect(tabs).toEqual([tabId, undefined]);
    expect(tabId).toMatch(/^tab_[0-9a-f]{24}$/);
  });
});

describe('apiRequest: a change sent once', () => {
  const keyOf = (init: RequestInit | undefined) =>
    (init?.headers as Record<string, string> | undefined)?.['Idempotency-Key'];

  it('gives each signed-in change a key of its own, and a read none', async () => {
    signInStorage();
    const fetchMock = mockFetch(() => success({}));
    await apiRequest(`${API_V1}/item_instances`, { method: 'POST', body: {} });
    await apiRequest(`${API_V1}/item_instances`, { method: 'POST', body: {} });
    await apiRequest(`${API_V1}/item_instances/1`);
    const keys = fetchMock.mock.calls.map(([, init]) => keyOf(init));
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBeUndefined();
  });

  it('sends a change again with the same key when its connection dropped, once', async () => {
    signInStorage();
    let calls = 0;
    const fetchMock = mockFetch(() => {
      calls += 1;
      if (calls === 1) throw new TypeError('Failed to fetch');
      return success({ moved: 3 });
    });
    const result = await apiRequest(`${API_V1}/containers/transfer`, {
      method: 'POST',
      body: { quantity: 3 },
    });
    expect(result.data).toEqual({ moved: 3 });
    const [first, second] = fetchMock.mock.calls.map(([, init]) => keyOf(init));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(second).toBe(first);

    const down = mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    const error = await caught(
      apiRequest(`${API_V1}/containers/transfer`, { method: 'POST', body: {}, toast: false }),
    );
    expect(error.code).toBe('NETWORK_ERROR');
    expect(down).toHaveBeenCalledTimes(2);
  });

  it('asks for an unanswered change again with its key, so the server answers it instead of making it twice', async () => {
    signInStorage();
    const body = { purchase: { item_instance_id: 'candle', quantity: 1 } };
    const down = mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    const lost = await caught(
      apiRequest(`${API_V1}/shop_instances/s/purchase`, { method: 'POST', body, toast: false }),
    );
    expect(lost.code).toBe('NETWORK_ERROR');
    const lostKey = keyOf(down.mock.calls[0]?.[1]);

    // "Buy" pressed again, as the error says: the same change, with the same key.
    const back = mockFetch(() => success({ bought: 1 }));
    await apiRequest(`${API_V1}/shop_instances/s/purchase`, { method: 'POST', body });
    expect(keyOf(back.mock.calls[0]?.[1])).toBe(lostKey);
    // Answered now: the next purchase of a candle is a purchase of its own.
    await apiRequest(`${API_V1}/shop_instances/s/purchase`, { method: 'POST', body });
    expect(keyOf(back.mock.calls[1]?.[1])).not.toBe(lostKey);
    // Another change is never taken for it.
    mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    await caught(apiRequest(`${API_V1}/shop_instances/s/purchase`, { method: 'POST', body, toast: false }));
    const other = mockFetch(() => success({}));
    await apiRequest(`${API_V1}/shop_instances/s/purchase`, {
      method: 'POST',
      body: { purchase: { item_instance_id: 'candle', quantity: 2 } },
    });
    expect(keyOf(other.mock.calls[0]?.[1])).not.toBe(lostKey);
  });

  it('waits for a first request the server is still running, asking again with the same key', async () => {
    signInStorage();
    let calls = 0;
    const fetchMock = mockFetch(() => {
      calls += 1;
      if (calls === 1) throw new TypeError('Failed to fetch');
      if (calls === 2) return failure(409, 'CONFLICT', idempotencyMessages.inProgress);
      return success({ moved: 3 });
    });
    const result = await apiRequest(`${API_V1}/containers/transfer`, { method: 'POST', body: {} });
    expect(result.data).toEqual({ moved: 3 });
    const keys = fetchMock.mock.calls.map(([, init]) => keyOf(init));
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
  });

  it('waits, in the same words, when a press finds its change still running (its key kept from a lost answer)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const shown = vi.spyOn(toast, 'error');
    try {
      signInStorage();
      let calls = 0;
      const fetchMock = mockFetch(() => {
        calls += 1;
        if (calls <= 3) return failure(409, 'CONFLICT', idempotencyMessages.inProgress);
        return success({ moved: 3 });
      });
      const pending = apiRequest(`${API_V1}/containers/transfer`, { method: 'POST', body: {} });
      await vi.advanceTimersByTimeAsync(4_000);
      expect((await pending).data).toEqual({ moved: 3 });
      expect(new Set(fetchMock.mock.calls.map(([, init]) => keyOf(init))).size).toBe(1);
      expect(shown).not.toHaveBeenCalled();

      // Still running after the wait: the player reads "taking longer than usual", never the header's name.
      mockFetch(() => failure(409, 'CONFLICT', idempotencyMessages.inProgress));
      const stuck = caught(apiRequest(`${API_V1}/containers/transfer`, { method: 'POST', body: { n: 1 } }));
      await vi.advanceTimersByTimeAsync(CHANGE_WAIT_MS + 3_000);
      const error = await stuck;
      expect(error.message).toBe(idempotencyMessages.stillRunning);
      expect(shown).toHaveBeenCalledWith(idempotencyMessages.stillRunning);
      for (const [message] of shown.mock.calls) expect(String(message)).not.toContain('Idempotency-Key');
    } finally {
      vi.useRealTimers();
    }
  });

  it('says a change was made when the server lost its answer, and forgets its key', async () => {
    signInStorage();
    const shown = vi.spyOn(toast, 'error');
    const lost = mockFetch(() => failure(409, 'CONFLICT', idempotencyMessages.answerLost));
    const error = await caught(
      apiRequest(`${API_V1}/containers/transfer`, { method: 'POST', body: { n: 2 } }),
    );
    expect(error.code).toBe('CONFLICT');
    expect(error.message).toBe(idempotencyMessages.madeAnswerLost);
    expect(lost).toHaveBeenCalledTimes(1);
    expect(shown).toHaveBeenCalledWith(idempotencyMessages.madeAnswerLost);
    for (const [message] of shown.mock.calls) expect(String(message)).not.toContain('Idempotency-Key');
    // Asked for again, it is a new change (the player was told the first was made).
    const next = mockFetch(() => success({}));
    await apiRequest(`${API_V1}/containers/transfer`, { method: 'POST', body: { n: 2 } });
    expect(keyOf(next.mock.calls[0]?.[1])).not.toBe(keyOf(lost.mock.calls[0]?.[1]));
  });

  it('says the change may still go through when the server is still running it after 20 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      signInStorage();
      let calls = 0;
      const fetchMock = mockFetch(() => {
        calls += 1;
        if (calls === 1) throw new TypeError('Failed to fetch');
        return failure(409, 'CONFLICT', idempotencyMessages.inProgress);
      });
      const pending = caught(
        apiRequest(`${API_V1}/containers/transfer`, { method: 'POST', body: {}, toast: false }),
      );
      await vi.advanceTimersByTimeAsync(CHANGE_RETRY_DELAY_MS + CHANGE_WAIT_MS + 2_000);
      const error = await pending;
      expect(error.code).toBe('CONFLICT');
      expect(error.message).toBe(idempotencyMessages.stillRunning);
      // Asked about once a second for the 20 s, never with a new key.
      expect(fetchMock.mock.calls.length).toBeGreaterThanOrEqual(20);
      expect(new Set(fetchMock.mock.calls.map(([, init]) => keyOf(init))).size).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up on a change still offline after 2 minutes, keeping its key for when it is asked for again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const onLine = vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      signInStorage();
      const info = vi.spyOn(toast, 'info');
      const down = mockFetch(() => {
        throw new TypeError('Failed to fetch');
      });
      const pending = caught(
        apiRequest(`${API_V1}/containers/transfer`, { method: 'POST', body: { q: 1 }, toast: false }),
      );
      await vi.advanceTimersByTimeAsync(CHANGE_RETRY_DELAY_MS + 100);
      expect(info).toHaveBeenCalledWith(waitingForConnectionMessage, CHANGE_OFFLINE_WAIT_MS);
      await vi.advanceTimersByTimeAsync(CHANGE_OFFLINE_WAIT_MS);
      const error = await pending;
      expect(error.code).toBe('NETWORK_ERROR');
      expect(down).toHaveBeenCalledTimes(2);
      onLine.mockReturnValue(true);
      const back = mockFetch(() => success({ moved: 1 }));
      await apiRequest(`${API_V1}/containers/transfer`, { method: 'POST', body: { q: 1 } });
      expect(keyOf(back.mock.calls[0]?.[1])).toBe(keyOf(down.mock.calls[0]?.[1]));
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends a read, a refusal, or a change of someone signed out only once', async () => {
    const reads = mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    signInStorage();
    await caught(apiRequest(`${API_V1}/item_instances/1`, { toast: false }));
    expect(reads).toHaveBeenCalledTimes(1);
    const refused = mockFetch(() => failure(409, 'CONFLICT', 'Changed meanwhile'));
    await caught(apiRequest(`${API_V1}/item_instances/1`, { method: 'PATCH', body: {}, toast: false }));
    expect(refused).toHaveBeenCalledTimes(1);
    tokenStorage.clear();
    const signedOut = mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    await caught(apiRequest(`${API_V1}/auth/register`, { method: 'POST', body: {}, toast: false }));
    expect(signedOut).toHaveBeenCalledTimes(1);
    expect(keyOf(signedOut.mock.calls[0]?.[1])).toBeUndefined();
  });
});

describe('apiRequest: errors', () => {
  it('keeps validation details for forms and never toasts them', async () => {
    const toastError = vi.spyOn(toast, 'error');
    mockFetch(() =>
      failure(422, 'VALIDATION_ERROR', 'Validation failed', [
        { field: 'user.email', message: 'Email has already been taken' },
      ]),
    );
    const error = await caught(apiRequest(`${API_V1}/auth/register`, { method: 'POST', body: {} }));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.status).toBe(422);
    expect(error.message).toBe(errorCatalogue.VALIDATION_ERROR.message);
    expect(error.details).toEqual([{ field: 'user.email', message: 'Email has already been taken' }]);
    expect(toastError).not.toHaveBeenCalled();
  });

  it('shows the catalogue message and toasts codes marked toast:true, unless the caller opts out', async () => {
    const toastError = vi.spyOn(toast, 'error');
    mockFetch(() => failure(401, 'INVALID_CREDENTIALS', 'bad password'));
    const error = await caught(apiRequest(`${API_V1}/auth/login`, { method: 'POST', body: {} }));
    expect(error.message).toBe('Invalid email or password.');
    expect(error.serverMessage).toBe('bad password');
    expect(toastError).toHaveBeenCalledWith('Invalid email or password.');

    toastError.mockClear();
    await caught(apiRequest(`${API_V1}/auth/login`, { method: 'POST', body: {}, toast: false }));
    expect(toastError).not.toHaveBeenCalled();
  });

  it('shows and toasts the server message for codes outside spec/01 §8’s eleven (issue 14)', async () => {
    const toastError = vi.spyOn(toast, 'error');
    const invitedTwice = 'That user already has an open invitation to this party.';
    mockFetch(() => failure(409, 'CONFLICT', invitedTwice));
    const error = await caught(apiRequest(`${API_V1}/parties/p-1/invitations`, { method: 'POST', body: {} }));
    expect(error).toMatchObject({ code: 'CONFLICT', status: 409, message: invitedTwice });
    expect(toastError).toHaveBeenCalledWith(invitedTwice);

    mockFetch(() => failure(422, 'CAPACITY_EXCEEDED', 'Adding this would exceed the weight limit'));
    const full = await caught(apiRequest(`${API_V1}/containers/transfer`, { toast: false }));
    expect(full.message).toBe('Adding this would exceed the weight limit');

    // The eleven keep the catalogue's words whatever the server said.
    mockFetch(() => failure(403, 'FORBIDDEN', 'not yours'));
    const forbidden = await caught(apiRequest(`${API_V1}/parties/p-1`, { toast: false }));
    expect(forbidden.message).toBe(errorCatalogue.FORBIDDEN.message);
  });

  it('shows the server message for codes outside the catalogue', async () => {
    mockFetch(() => failure(418, 'TEAPOT', 'I am a teapot'));
    const error = await caught(apiRequest(`${API_V1}/brew`, { toast: false }));
    expect(error).toMatchObject({ code: 'TEAPOT', message: 'I am a teapot', status: 418 });
  });

  it.each([
    [400, 'BAD_REQUEST', errorCatalogue.BAD_REQUEST.message],
    [404, 'RESOURCE_NOT_FOUND', errorCatalogue.RESOURCE_NOT_FOUND.message],
    [429, 'RATE_LIMITED', errorCatalogue.RATE_LIMITED.message],
    [500, 'INTERNAL_SERVER_ERROR', errorCatalogue.INTERNAL_SERVER_ERROR.message],
    [502, 'BAD_GATEWAY', 'Bad gateway'],
    [503, 'SERVICE_UNAVAILABLE', 'Service unavailable'],
    [418, 'HTTP_418', 'Request failed with status 418'],
  ])('names a bare %i answer %s', async (status, code, message) => {
    mockFetch(() => new Response('<html>proxy error</html>', { status }));
    const error = await caught(apiRequest(`${API_V1}/items`, { toast: false }));
    expect(error).toMatchObject({ code, message, status });
  });

  it('turns a dropped connection into NETWORK_ERROR and toasts it', async () => {
    const toastError = vi.spyOn(toast, 'error');
    mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    const error = await caught(apiRequest(`${API_V1}/items`));
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.message).toBe(errorCatalogue.NETWORK_ERROR.message);
    expect(toastError).toHaveBeenCalledWith(errorCatalogue.NETWORK_ERROR.message);
  });

  it('aborts a request after 10 s and reports it as a NETWORK_ERROR timeout', async () => {
    vi.useFakeTimers();
    mockFetch(
      ({ init }) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        }),
    );
    const pending = caught(apiRequest(`${API_V1}/slow`, { toast: false }));
    await vi.advanceTimersByTimeAsync(9_999);
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.serverMessage).toBe('The request timed out.');
  });
});

describe('apiDownload: a file that takes a while', () => {
  it('keeps a download whose headers came in time while its body takes longer than 10 s', async () => {
    // Review "bigdata" finding 5: spec/01 §7 "Requests time out after 10 s" is for API calls; a big export
    // streams for longer once its headers are in, and is not cut off for it (as the browser's fetch errors
    // the body of a request aborted after its headers).
    vi.useFakeTimers();
    try {
      mockFetch(({ init }) => {
        const encoder = new TextEncoder();
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(encoder.encode('{"status": "success", '));
            init.signal?.addEventListener('abort', () =>
              controller.error(new DOMException('Aborted', 'AbortError')),
            );
            setTimeout(() => {
              controller.enqueue(encoder.encode('"data": {}}'));
              controller.close();
            }, 25_000);
          },
        });
        return Promise.resolve(
          new Response(body, {
            headers: {
              'content-type': 'application/json',
              'content-disposition': 'attachment; filename="haversack-export-aria-2026-11-29.json"',
            },
          }),
        );
      });
      let settled = false;
      const download = apiDownload(`${API_V1}/users/me/export`, { toast: false }).finally(() => {
        settled = true;
      });
      await vi.advanceTimersByTimeAsync(10_000);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(15_000);
      const { blob, filename } = await download;
      expect(filename).toBe('haversack-export-aria-2026-11-29.json');
      expect(await blob.text()).toBe('{"status": "success", "data": {}}');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('apiRequest: a turn of its own (issue 13 §1)', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** A browser's scheduler.yield, resolved by the test. */
  function stubSchedulerYield() {
    const turns: (() => void)[] = [];
    vi.stubGlobal('scheduler', {
      yield: () => new Promise<void>((resolve) => turns.push(resolve)),
    });
    return turns;
  }

  it('starts the request once the browser gives it a turn, where it can (scheduler.yield)', async () => {
    const turns = stubSchedulerYield();
    const fetchMock = mockFetch(() => jsonResponse(200, { status: 'success', data: { name: 'Rope' } }));
    const pending = apiRequest(`${API_V1}/items/1`, { schema: itemSchema });
    await vi.waitFor(() => expect(turns).toHaveLength(1));
    expect(fetchMock).not.toHaveBeenCalled();
    turns[0]?.();
    await expect(pending).resolves.toMatchObject({ data: { name: 'Rope' } });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('fails as an abort does during the request when the caller gave up while it waited', async () => {
    // An abort while the request travels, without a turn to wait for: what the caller sees today.
    mockFetch(
      ({ init }) =>
        new Promise<Response>((_resolve, reject) => {
          if (init.signal?.aborted) reject(new DOMException('Aborted', 'AbortError'));
          init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        }),
    );
    const during = new AbortController();
    const travelling = caught(apiRequest(`${API_V1}/items/1`, { signal: during.signal, toast: false }));
    await Promise.resolve();
    during.abort();
    const expected = await travelling;
    expect(expected.code).not.toBe('NETWORK_ERROR');

    const turns = stubSchedulerYield();
    const waiting = new AbortController();
    const pending = caught(apiRequest(`${API_V1}/items/1`, { signal: waiting.signal, toast: false }));
    await vi.waitFor(() => expect(turns).toHaveLength(1));
    waiting.abort();
    turns[0]?.();
    const error = await pending;
    expect({ code: error.code, message: error.message }).toEqual({
      code: expected.code,
      message: expected.message,
    });
  });
});

describe('apiRequest: refresh on 401', () => {
  const newTokens = buildTokens({ token: 'access-new', refresh_token: 'refresh-new' });

  it('refreshes once and retries the request with the new token', async () => {
    signInStorage();
    const fetchMock = mockFetch(({ url, init }) => {
      if (url.endsWith('/auth/refresh')) return success(newTokens);
      return authHeaderOf(init) === 'Bearer access-new'
        ? success({ name: 'Lantern' })
        : failure(401, 'EXPIRED_TOKEN', 'expired');
    });
    const result = await apiRequest(`${API_V1}/items/1`, { schema: itemSchema });
    expect(result.data).toEqual({ name: 'Lantern' });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    const refreshCall = fetchMock.mock.calls[1];
    expect(refreshCall?.[1]?.body).toBe('{"refresh_token":"refresh-old"}');
    expect(tokenStorage.getAccessToken()).toBe('access-new');
    expect(tokenStorage.getRefreshToken()).toBe('refresh-new');
  });

  it('retries only once: a second 401 is returned to the caller', async () => {
    signInStorage();
    const fetchMock = mockFetch(({ url }) =>
      url.endsWith('/auth/refresh') ? success(newTokens) : failure(401, 'UNAUTHORIZED', 'nope'),
    );
    const error = await caught(apiRequest(`${API_V1}/items/1`));
    expect(error.code).toBe('UNAUTHORIZED');
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('shares a single refresh between concurrent 401s', async () => {
    signInStorage();
    let refreshCalls = 0;
    const fetchMock = mockFetch(async ({ url, init }) => {
      if (url.endsWith('/auth/refresh')) {
        refreshCalls += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return success(newTokens);
      }
      return authHeaderOf(init) === 'Bearer access-new'
        ? success({ name: url.split('/').pop() ?? '' })
        : failure(401, 'EXPIRED_TOKEN', 'expired');
    });
    const results = await Promise.all([
      apiRequest(`${API_V1}/items/a`, { schema: itemSchema }),
      apiRequest(`${API_V1}/items/b`, { schema: itemSchema }),
      apiRequest(`${API_V1}/items/c`, { schema: itemSchema }),
    ]);
    expect(results.map((result) => result.data.name)).toEqual(['a', 'b', 'c']);
    expect(refreshCalls).toBe(1);
    expect(fetchMock).toHaveBeenCalledTimes(7);
  });

  it('on a refused refresh clears the session, toasts for 7 s and emits session-expired', async () => {
    signInStorage();
    tokenStorage.setUser({
      id: 'u',
      email: 'a@b.c',
      username: 'abc',
      display_name: null,
      tier: 'tier_free',
      subscription_status: 'active',
      tier_upgraded_at: null,
      email_verified: true,
      email_verified_at: null,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      admin: false,
    });
    const sessionExpiredToast = vi.spyOn(toast, 'sessionExpired');
    const listener = vi.fn();
    const unsubscribe = onSessionExpired(listener);
    const fetchMock = mockFetch(({ url }) =>
      url.endsWith('/auth/refresh')
        ? failure(401, 'REVOKED_TOKEN', errorCatalogue.REVOKED_TOKEN.message)
        : failure(401, 'EXPIRED_TOKEN', 'expired'),
    );
    const error = await caught(apiRequest(`${API_V1}/items/1`));
    unsubscribe();
    expect(error.status).toBe(401);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(tokenStorage.getAccessToken()).toBeNull();
    expect(tokenStorage.getRefreshToken()).toBeNull();
    expect(await tokenStorage.getUser()).toBeNull();
    expect(window.localStorage.getItem('token_expires_at')).toBeNull();
    expect(sessionExpiredToast).toHaveBeenCalledWith(errorCatalogue.EXPIRED_TOKEN.message);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  describe('a change refused because the session cannot be renewed', () => {
    const shownMessages = () => useUiStore.getState().toasts.map((shown) => shown.message);
    beforeEach(() => useUiStore.setState({ toasts: [] }));
    afterEach(() => useUiStore.setState({ toasts: [] }));

    it('says the change was not made, ends the session at once, and never sends it again', async () => {
      signInStorage();
      const listener = vi.fn();
      const unsubscribe = onSessionExpired(listener);
      const fetchMock = mockFetch(({ url }) =>
        url.endsWith('/auth/refresh')
          ? failure(401, 'REVOKED_TOKEN', errorCatalogue.REVOKED_TOKEN.message)
          : failure(401, 'EXPIRED_TOKEN', 'expired'),
      );
      const error = await caught(
        apiRequest(`${API_V1}/items`, { method: 'POST', body: { name: 'Rope' }, toast: false }),
      );
      unsubscribe();
      expect(error.status).toBe(401);
      // The change, the refused refresh; nothing after it with the dead tokens.
      expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual([
        '/api/v1/items',
        '/api/v1/auth/refresh',
      ]);
      expect(tokenStorage.getAccessToken()).toBeNull();
      expect(listener).toHaveBeenCalledTimes(1);
      expect(changeNotMadeSessionEndedMessage).toBe('Your change was not made. Sign in and make it again.');
      expect(shownMessages()).toContain(changeNotMadeSessionEndedMessage);
    });

    it('is not said of a read, nor of a change whose refresh only lost its connection', async () => {
      signInStorage();
      mockFetch(({ url }) =>
        url.endsWith('/auth/refresh')
          ? failure(401, 'EXPIRED_TOKEN', errorCatalogue.EXPIRED_TOKEN.message)
          : failure(401, 'EXPIRED_TOKEN', 'expired'),
      );
      await caught(apiRequest(`${API_V1}/items/1`));
      expect(shownMessages()).not.toContain(changeNotMadeSessionEndedMessage);

      signInStorage();
      mockFetch(({ url }) => {
        if (url.endsWith('/auth/refresh')) throw new TypeError('Failed to fetch');
        return failure(401, 'EXPIRED_TOKEN', 'expired');
      });
      await caught(apiRequest(`${API_V1}/items`, { method: 'POST', body: { name: 'Rope' }, toast: false }));
      expect(tokenStorage.getRefreshToken()).toBe('refresh-old');
      expect(shownMessages()).not.toContain(changeNotMadeSessionEndedMessage);
    });
  });

  it('says so when another tab of the browser signed out', async () => {
    signInStorage();
    const sessionExpiredToast = vi.spyOn(toast, 'sessionExpired');
    // The request goes with the token; meanwhile the other tab signs out, clearing what both tabs share.
    mockFetch(() => {
      tokenStorage.clear();
      return failure(401, 'REVOKED_TOKEN', errorCatalogue.REVOKED_TOKEN.message);
    });
    expect((await caught(apiRequest(`${API_V1}/items/1`))).status).toBe(401);
    expect(sessionExpiredToast).toHaveBeenCalledWith(signedOutInAnotherTab);
    expect(signedOutInAnotherTab).toBe('You signed out in another tab. Sign in again to continue.');
  });

  it('says the reason another tab noted when it ended the session these tabs share', async () => {
    const sessionExpiredToast = vi.spyOn(toast, 'sessionExpired');
    // The other tab's sign-out revoked the session before it cleared the tokens: the refresh is refused
    // with the server's bare words, and the note says what happened.
    signInStorage();
    noteSessionEnd(signedOutInAnotherTab);
    mockFetch(() => failure(401, 'REVOKED_TOKEN', errorCatalogue.REVOKED_TOKEN.message));
    await caught(apiRequest(`${API_V1}/items/1`));
    expect(sessionExpiredToast).toHaveBeenLastCalledWith(signedOutInAnotherTab);

    // The other tab heard of a password changed elsewhere and cleared the tokens: same words here.
    const changed = 'Your password was changed on another device. Sign in again with the new one.';
    signInStorage();
    mockFetch(() => {
      noteSessionEnd(changed);
      tokenStorage.clear();
      return failure(401, 'REVOKED_TOKEN', errorCatalogue.REVOKED_TOKEN.message);
    });
    await caught(apiRequest(`${API_V1}/items/1`));
    expect(sessionExpiredToast).toHaveBeenLastCalledWith(changed);
  });

  it('says why when the session was signed out from another device', async () => {
    signInStorage();
    const sessionExpiredToast = vi.spyOn(toast, 'sessionExpired');
    const elsewhere = 'You were signed out from another device. Sign in again to continue.';
    mockFetch(({ url }) =>
      url.endsWith('/auth/refresh')
        ? failure(401, 'REVOKED_TOKEN', elsewhere)
        : failure(401, 'REVOKED_TOKEN', errorCatalogue.REVOKED_TOKEN.message),
    );
    expect((await caught(apiRequest(`${API_V1}/items/1`))).status).toBe(401);
    expect(sessionExpiredToast).toHaveBeenCalledWith(elsewhere);
    expect(tokenStorage.getRefreshToken()).toBeNull();
  });

  it('never refreshes for the auth requests themselves', async () => {
    signInStorage();
    const fetchMock = mockFetch(() => failure(401, 'INVALID_CREDENTIALS', 'bad'));
    await caught(apiRequest(`${API_V1}/auth/login`, { method: 'POST', body: {}, toast: false }));
    await caught(apiRequest(`${API_V1}/auth/logout`, { method: 'DELETE', toast: false }));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/auth/refresh'))).toBe(false);
  });
});

describe('apiRequest: an expired admin session', () => {
  it('is answered as it is, without refreshing the access token, and sends the extra headers', async () => {
    signInStorage();
    const fetchMock = mockFetch(() =>
      failure(401, 'ADMIN_SESSION_EXPIRED', 'Your admin session has expired.'),
    );
    const error = await caught(
      apiRequest(`${API_V1}/admin/sessions/verify`, { toast: false, headers: { 'X-Admin-Session': 's1' } }),
    );
    expect([error.code, error.status]).toEqual(['ADMIN_SESSION_EXPIRED', 401]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[1]?.headers).toMatchObject({ 'X-Admin-Session': 's1' });
    expect(tokenStorage.getRefreshToken()).toBe('refresh-old');
  });
});

describe('toastUnexplainedFailure (spec/01 §8 general toasts)', () => {
  it('toasts the general message only for a failure the API did not explain', () => {
    const toastError = vi.spyOn(toast, 'error');
    toastUnexplainedFailure(new ApiError({ code: 'FORBIDDEN', status: 403, message: 'no' }), 'Failed');
    expect(toastError).not.toHaveBeenCalled();
    toastUnexplainedFailure(new TypeError('x is undefined'), 'Failed to delete. Please try again.');
    expect(toastError).toHaveBeenCalledWith('Failed to delete. Please try again.');
  });
});
