import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { failure, jsonResponse, mockFetch } from '../../../test/fixtures';
import { buildCharacter, pageMeta } from '../../../test/party-fixtures';
import { myCharactersQuery, partyCharactersQuery } from './characters-api';

afterEach(() => vi.unstubAllGlobals());

/** A server holding 141 characters, served as it serves them: at most 100 a page. */
function serveCharacters() {
  const all = Array.from({ length: 141 }, (_, i) => buildCharacter({ id: `ch-${i}`, name: `NPC ${i}` }));
  const fetchMock = mockFetch(({ url }) => {
    const address = new URL(url, 'http://test');
    if (address.pathname !== '/api/v1/characters')
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`);
    const page = Number(address.searchParams.get('page') ?? '1');
    const perPage = Math.min(100, Number(address.searchParams.get('per_page') ?? '10'));
    const data = all.slice((page - 1) * perPage, page * perPage);
    return jsonResponse(200, { status: 'success', data, meta: pageMeta(all.length, perPage, page) });
  });
  return { all, fetchMock };
}

describe('the lists of all characters (pickers, Party → Characters)', () => {
  it.each([
    ['all my characters', () => createQueryClient().fetchQuery(myCharactersQuery())],
    ['a party’s characters', () => createQueryClient().fetchQuery(partyCharactersQuery('party-1'))],
  ])('%s come from every page, not the first 100 only', async (_which, fetchAll) => {
    const { all } = serveCharacters();
    const answer = await fetchAll();
    expect(answer.characters.map((c) => c.id)).toEqual(all.map((c) => c.id));
    expect(answer.meta.total_count).toBe(141);
  });
});
