import { describe, expect, it } from 'vitest';
import { relativeTime, relativeTimeInSentence } from './relative-time';

const now = new Date('2026-03-10T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('relativeTime', () => {
  it('says "Just now" under a minute, and for a time a little in the future', () => {
    expect(relativeTime(ago(0), now)).toBe('Just now');
    expect(relativeTime(ago(59_999), now)).toBe('Just now');
    expect(relativeTime(new Date(now.getTime() + 5_000), now)).toBe('Just now');
  });

  it('counts whole minutes from one minute to just under an hour', () => {
    expect(relativeTime(ago(60_000), now)).toBe('1m ago');
    expect(relativeTime(ago(119_999), now)).toBe('1m ago');
    expect(relativeTime(ago(59 * 60_000 + 59_999), now)).toBe('59m ago');
  });

  it('counts whole hours from one hour to just under a day', () => {
    expect(relativeTime(ago(60 * 60_000), now)).toBe('1h ago');
    expect(relativeTime(ago(24 * 60 * 60_000 - 1), now)).toBe('23h ago');
  });

  it('shows the date from a day on', () => {
    const dayAgo = ago(24 * 60 * 60_000);
    const text = relativeTime(dayAgo, now);
    expect(text).not.toMatch(/ago|Just now/);
    expect(text).toContain(String(dayAgo.getFullYear()));
    expect(text).toContain(String(dayAgo.getDate()));
  });

  it('reads ISO strings and ignores what is not a date', () => {
    expect(relativeTime(ago(5 * 60_000).toISOString(), now)).toBe('5m ago');
    expect(relativeTime('not a date', now)).toBe('');
  });

  it('lowercases "Just now" for the middle of a sentence, and leaves the rest as it is', () => {
    expect(relativeTimeInSentence(ago(0), now)).toBe('just now');
    expect(relativeTimeInSentence(ago(5 * 60_000), now)).toBe('5m ago');
    const dayAgo = ago(24 * 60 * 60_000);
    expect(relativeTimeInSentence(dayAgo, now)).toBe(relativeTime(dayAgo, now));
  });
});
