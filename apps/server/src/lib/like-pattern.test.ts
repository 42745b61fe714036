import { describe, expect, it } from 'vitest';
import { escapeLike, likeContaining } from './like-pattern.js';

describe('escapeLike', () => {
  it.each([
    ['a backslash', 'a\\b', 'a\\\\b'],
    ['a percent sign', '100%', '100\\%'],
    ['an underscore', 'short_sword', 'short\\_sword'],
  ])('escapes %s, so that it matches only itself', (_what, text, escaped) => {
    expect(escapeLike(text)).toBe(escaped);
  });

  it('escapes every wildcard of a text and leaves the rest as it is', () => {
    expect(escapeLike('50%_off \\ Rare')).toBe('50\\%\\_off \\\\ Rare');
    expect(escapeLike('Elven Cloak')).toBe('Elven Cloak');
  });
});

describe('likeContaining', () => {
  it('matches the text anywhere, its own wildcards escaped', () => {
    expect(likeContaining('a_b%')).toBe('%a\\_b\\%%');
  });
});
