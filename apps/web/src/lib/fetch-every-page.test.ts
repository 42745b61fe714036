import type { PageMeta } from '@haversack/contracts';
import { describe, expect, it, vi } from 'vitest';
import { fetchEveryPage, pageSearch } from './fetch-every-page';

/** A list of `count` names served `perPage` at most a page, as the API serves its lists, with its meta. */
function servedList(count: number, largest = 100) {
  const all = Array.from({ length: count }, (_, i) => `name ${i}`);
  return vi.fn(async (page: number, perPage: number) => {
    const size = Math.min(perPage, largest);
    const meta: PageMeta = {
      current_page: page,
      total_pages: Math.max(Math.ceil(count / size), 1),
      total_count: count,
      per_page: size,
    };
    return { names: all.slice((page - 1) * size, page * size), meta };
  });
}

describe('fetchEveryPage', () => {
  it('reads the pages one after another, 100 a request, until the meta’s last page, as one page', async () => {
    const fetchPage = servedList(241);
    const { items, meta, last } = await fetchEveryPage(fetchPage, (page) => page.names);
    expect(fetchPage.mock.calls).toEqual([
      [1, 100],
      [2, 100],
      [3, 100],
    ]);
    expect(items).toHaveLength(241);
    expect(items.at(-1)).toBe('name 240');
    expect(meta).toEqual({ current_page: 1, total_pages: 1, total_count: 241, per_page: 241 });
    expect(last.meta.current_page).toBe(3);
  });

  it('asks once for a list of one page, or none, and tells a page size of at least 1', async () => {
    const empty = servedList(0);
    expect(await fetchEveryPage(empty, (page) => page.names)).toMatchObject({
      items: [],
      meta: { total_pages: 1, total_count: 0, per_page: 1 },
    });
    expect(empty).toHaveBeenCalledTimes(1);
  });

  it('stops at an empty page, for a list that shrank while it was read', async () => {
    const fetchPage = vi.fn(async (page: number) => ({
      names: page === 1 ? ['a', 'b'] : [],
      meta: { current_page: page, total_pages: 5, total_count: 10, per_page: 2 },
    }));
    const { items } = await fetchEveryPage(fetchPage, (page) => page.names, 2);
    expect(items).toEqual(['a', 'b']);
    expect(fetchPage).toHaveBeenCalledTimes(2);
  });
});

describe('pageSearch', () => {
  it('is a copy of the list’s filters with the page and its size, the filters left as they were', () => {
    const filters = new URLSearchParams({ party_id: 'p1' });
    expect(String(pageSearch(filters, 2, 100))).toBe('party_id=p1&page=2&per_page=100');
    expect(String(filters)).toBe('party_id=p1');
  });
});
