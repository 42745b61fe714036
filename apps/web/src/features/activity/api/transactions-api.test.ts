import { afterEach, describe, expect, it } from 'vitest';
import { csvFileName, historySearch, startDateFor } from './transactions-api';

// Local noon, so that the file name's date is far from any midnight or daylight-saving edge.
const now = new Date(2026, 2, 10, 12, 0, 0);
const HOUR_MS = 3_600_000;
const hoursBefore = (hours: number, from: Date = now) =>
  new Date(from.getTime() - hours * HOUR_MS).toISOString();

describe('startDateFor', () => {
  it('goes back the range in whole 24-hour days from now, as an instant, and not at all for "all"', () => {
    expect(startDateFor('1d', now)).toBe(hoursBefore(24));
    expect(startDateFor('7d', now)).toBe(hoursBefore(7 * 24));
    expect(startDateFor('30d', now)).toBe(hoursBefore(30 * 24));
    expect(startDateFor('all', now)).toBeNull();
  });

  describe('near midnight, far from UTC', () => {
    const zone = process.env.TZ;
    afterEach(() => {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    });

    // A local date minus N days, read by the server as UTC midnight, was ~20 h in UTC+14 and ~44 h in UTC−11.
    it.each([
      ['Pacific/Kiritimati', '2026-03-10T10:30:00Z'], // 00:30 on 11 March, UTC+14
      ['Pacific/Pago_Pago', '2026-03-10T12:30:00Z'], // 01:30 on 10 March, UTC−11
      ['Pacific/Pago_Pago', '2026-03-10T10:30:00Z'], // 23:30 on 9 March, UTC−11
    ])('in %s at %s, "1d" is exactly the last 24 hours and "7d" the last 168', (timeZone, instant) => {
      process.env.TZ = timeZone;
      const at = new Date(instant);
      expect(Date.parse(startDateFor('1d', at) ?? '')).toBe(at.getTime() - 24 * HOUR_MS);
      expect(Date.parse(startDateFor('7d', at) ?? '')).toBe(at.getTime() - 7 * 24 * HOUR_MS);
    });
  });
});

describe('historySearch', () => {
  it('sends paging by action, the type unless it is all, and the start unless the range is all', () => {
    expect(
      Object.fromEntries(historySearch({ range: '7d', type: 'all', page: 2, perPage: 50 }, now)),
    ).toEqual({ page: '2', per_page: '50', group: 'operation', start_date: hoursBefore(7 * 24) });
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
