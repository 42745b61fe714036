import { describe, expect, it } from 'vitest';
import { statementName } from './statements.js';

describe('statementName', () => {
  it('names one shape the same way every time, and different shapes differently', () => {
    expect(statementName('lock')).toBe('lock');
    expect(statementName('lock', 2)).toBe('lock_2');
    expect(statementName('insert', 'a,b|a')).toBe(statementName('insert', 'a,b|a'));
    expect(statementName('insert', 'a,b|a')).not.toBe(statementName('insert', 'a|a,b'));
    expect(statementName('insert', 'a,b')).toMatch(/^insert_[0-9a-f]{1,8}$/);
  });
});
