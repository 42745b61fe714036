import { describe, expect, it } from 'vitest';
import { foldedIncludes, foldForSearch } from './search-fold';

describe('foldForSearch', () => {
  it('drops case and accents, and makes the Turkish ı one letter with i, as the server’s search does', () => {
    expect(foldForSearch('Öllampe')).toBe('ollampe');
    expect(foldForSearch('ÉPÉE')).toBe('epee');
    expect(foldForSearch('Kılıç')).toBe('kilic');
    expect(foldForSearch('İZMİR')).toBe('izmir');
  });

  it('finds a part of a name however it is spelt', () => {
    expect(foldedIncludes('Öllampe 5', 'OLLAMPE')).toBe(true);
    expect(foldedIncludes('Kılıç 3', 'KILIC')).toBe(true);
    expect(foldedIncludes('Hempen Rope', 'rope')).toBe(true);
    expect(foldedIncludes('Hempen Rope', 'sword')).toBe(false);
    // A name typed with a decomposed accent (NFD) is the same name.
    expect(foldedIncludes('Épée', 'e\u0301pe\u0301e')).toBe(true);
  });
});
