import { inventoryMessages } from '@haversack/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/http-client';
import { transferErrorMessage, unexpectedTransferError } from './transfer-messages';

describe('transferErrorMessage', () => {
  it('names the refused field of a validation error, not only "check your input"', () => {
    const error = new ApiError({
      code: 'VALIDATION_ERROR',
      status: 422,
      message: 'Please check your input and try again',
      serverMessage: 'Please check your input and try again',
      details: [{ field: 'quantity', message: inventoryMessages.quantityTooLarge }],
    });
    expect(transferErrorMessage(error)).toBe('There are not that many in the stack');
  });

  it("keeps the server's own message of any other refusal, and the spec's sentence for the unexpected", () => {
    const weight = new ApiError({
      code: 'CAPACITY_EXCEEDED',
      status: 422,
      message: 'x',
      serverMessage: inventoryMessages.weightExceeded,
      details: [{ field: 'target_container_id', message: 'over' }],
    });
    expect(transferErrorMessage(weight)).toBe(inventoryMessages.weightExceeded);
    expect(transferErrorMessage(new Error('boom'))).toBe(unexpectedTransferError);
  });
});
