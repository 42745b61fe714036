import { errorCatalogue, lootMessages } from '@haversack/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/http-client';
import { takeErrorMessage } from './use-take-loot';

const lostConnection = new ApiError({
  code: 'NETWORK_ERROR',
  status: 0,
  message: errorCatalogue.NETWORK_ERROR.message,
});

describe('why a take or a claim failed', () => {
  it('names a take as a take, and a claim as a claim, when nothing else explains the failure', () => {
    expect(lootMessages.takeFailed).toBe('Failed to take item');
    expect(takeErrorMessage(lostConnection)).toBe('Failed to take item');
    expect(takeErrorMessage(new Error('boom'), 'take')).toBe('Failed to take item');
    expect(takeErrorMessage(lostConnection, 'claim')).toBe('Failed to claim item');
  });

  it('keeps the server’s reason when it gave one', () => {
    const refused = new ApiError({
      code: 'CONFLICT',
      status: 409,
      message: lootMessages.alreadyTaken,
      serverMessage: lootMessages.alreadyTaken,
    });
    expect(takeErrorMessage(refused)).toBe(lootMessages.alreadyTaken);
  });
});
