import { describe, expect, it } from 'vitest';
import { CONTAINER_ITEMS_LARGEST_PAGE, CONTAINER_ITEMS_PER_PAGE, nextItemPageParam } from './inventory-api';

describe('the pages of a container scrolled through', () => {
  it('start with the spec 20, double, and stay at the largest page', () => {
    expect(CONTAINER_ITEMS_PER_PAGE).toBe(20);
    expect(nextItemPageParam(20)).toEqual({ page: 2, perPage: 20 });
    expect(nextItemPageParam(40)).toEqual({ page: 2, perPage: 40 });
    expect(nextItemPageParam(80)).toEqual({ page: 2, perPage: 80 });
    expect(nextItemPageParam(160)).toEqual({ page: 2, perPage: 160 });
    expect(nextItemPageParam(320)).toEqual({ page: 2, perPage: 320 });
    expect(nextItemPageParam(640)).toEqual({ page: 3, perPage: CONTAINER_ITEMS_LARGEST_PAGE });
  });

  it('cover 5,000 items end to end, each page starting where the last ended, in 20 requests', () => {
    let loaded = CONTAINER_ITEMS_PER_PAGE;
    let requests = 1;
    while (loaded < 5000) {
      const { page, perPage } = nextItemPageParam(loaded);
      // The page's offset is exactly what was loaded: no item twice, none skipped.
      expect((page - 1) * perPage).toBe(loaded);
      expect(perPage).toBeLessThanOrEqual(500);
      loaded += perPage;
      requests += 1;
    }
    expect(requests).toBe(20);
  });
});
