import { describe, expect, it } from 'vitest';
import { csvFileName, historySearch, startDateFor } from './transactions-api';

// Local noon, so that the date arithmetic is far from any midnight or daylight-saving edge.
const now = new Date(2026, 2, 10, 12, 0, 0);

describe('startDateFor', () => {
  it('goes back the range in days from today, and not at all for "all"', () => {
    expect(startDateFor('1d', now)).toBe('2026-03-09');
    expect(startDateFor('7d', now)).toBe('2026-03-03');
    expect(startDateFor('30d', now)).toBe('2026-02-08');
    expect(startDateFor('all', now)).toBeNull();
  });

  it('crosses month and year ends', () => {
    expect(startDateFor('7d', new Date(2026, 0, 3, 12))).toBe('2025-12-27');
  });
});

describe('historySearch', () => {
  it('sends paging, the type unless it is all, and the start date unless the range is all', () => {
    expect(
      Object.fromEntries(historySearch({ range: '7d', type: 'all', page: 2, perPage: 50 }, now)),
    ).toEqual({ page: '2', per_page: '50', start_date: '2026-03-03' });
    expect(Object.fromEntries(historySearch({ range: 'all', type: 'split' }, now))).toEqual({
      transaction_type: 'split',
    });
  });
});

describe('csvFileName', () => {
  it("uses the server's file name, else transactions-{id}-{date}.csv", () => {
    expect(csvFileName('p1', 'attachment; filename="transactions-p1-2026-03-09.csv"', now)).toBe(
      'transactions-p1-2026-03-09.csv',
    );
    expect(csvFileName('p1', null, now)).toBe('transactions-p1-2026-03-10.csv');
  });
});
