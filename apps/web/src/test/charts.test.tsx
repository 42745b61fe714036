import { BarChart } from '@mantine/charts';
import { waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderRoutes } from './render';

// happy-dom lays nothing out: a chart's responsive container measured 0 × 0, drew nothing and had recharts
// warn "The width(0) and height(0) of chart should be greater than 0" into the run, in every test that
// rendered a chart without asking for a size first. The test setup gives them one, as a browser would.
describe('charts in tests', () => {
  it('draw at a size, without recharts’ zero-size warning', async () => {
    const warn = vi.spyOn(console, 'warn');
    const { container } = renderRoutes(
      [
        {
          path: '/',
          element: (
            <BarChart
              h={200}
              data={[{ day: 'Mon', count: 3 }]}
              dataKey="day"
              series={[{ name: 'count', color: 'blue.6' }]}
            />
          ),
        },
      ],
      '/',
    );
    await waitFor(() => expect(container.querySelector('svg.recharts-surface')).not.toBeNull());
    expect(warn.mock.calls.filter(([message]) => String(message).includes('width(0)'))).toEqual([]);
  });
});
