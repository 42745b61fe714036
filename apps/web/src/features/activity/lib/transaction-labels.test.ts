import {
  operationKindLabel,
  shopMessages,
  transactionTypeLabel,
  transactionTypes,
} from '@haversack/contracts';
import { describe, expect, it } from 'vitest';
import { transactionTypeOptions } from './transaction-labels';

describe('the transaction type filter (issue 14)', () => {
  it('offers All types and every type the server writes, once each, in the contracts’ order', () => {
    expect(transactionTypeOptions.map((option) => option.value)).toEqual(['all', ...transactionTypes]);
    const labels = transactionTypeOptions.map((option) => option.label);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('names the stash moves, and what shops and loot make and lose, in words that tell them apart', () => {
    expect(transactionTypeLabel('party_deposit')).toBe('Party deposit');
    expect(transactionTypeLabel('party_withdraw')).toBe('Party withdrawal');
    expect(transactionTypeLabel('character_to_party_transfer')).toBe('Character to party (GM)');
    expect(transactionTypeLabel('create')).toBe('Shop or loot stocked');
    expect(transactionTypeLabel('delete')).toBe('Shop or loot stock removed');
    expect(transactionTypeLabel('item_creation')).toBe('Item added');
    // A type from a newer server still reads as words.
    expect(transactionTypeLabel('loot_auction')).toBe('Loot auction');
  });

  it('names the actions whose main row does not say what they were, beside the shop’s own words', () => {
    expect(operationKindLabel('shop_deployment')).toBe('Shop deployed');
    expect(operationKindLabel('loot_deployment')).toBe('Loot deployed');
    expect(operationKindLabel('shop_request')).toBe('Purchase requested');
    // A request's outcome, as the shop's own toasts say it.
    expect(operationKindLabel('shop_request_approved')).toBe(shopMessages.requestApproved);
    expect(operationKindLabel('shop_request_declined')).toBe(shopMessages.requestDeclined);
    expect(operationKindLabel('shop_request_cancelled')).toBe(shopMessages.requestCancelled);
    expect(operationKindLabel('joined_party')).toBe('Joined the party');
    expect(operationKindLabel('left_party')).toBe('Left the party');
    expect(operationKindLabel('barge_deployment')).toBeNull();
  });
});
