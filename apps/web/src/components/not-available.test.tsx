import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../test/render';
import { NotAvailable } from './not-available';

describe('NotAvailable', () => {
  it('says "This feature is coming soon!" where a section is announced but not built', async () => {
    renderRoutes(
      [
        {
          path: '/discord',
          element: <NotAvailable title="Discord" subject="The Discord bot integration is" />,
        },
      ],
      '/discord',
    );
    const panel = await screen.findByTestId('not-available');
    expect(panel).toHaveTextContent('This feature is coming soon!');
    expect(panel).toHaveTextContent('The Discord bot integration is not available yet');
  });
});
