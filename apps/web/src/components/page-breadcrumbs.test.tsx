import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PageBreadcrumbs } from './page-breadcrumbs';

describe('PageBreadcrumbs', () => {
  it('is a navigation landmark named Breadcrumb, its links in order and the page itself marked current', () => {
    render(
      <MantineProvider env="test">
        <MemoryRouter>
          <PageBreadcrumbs
            trail={[
              { label: 'Shops', to: '/shops/instances' },
              { label: 'The Fellowship', to: '/parties/p1' },
            ]}
            current="Ironbark Smithy"
          />
        </MemoryRouter>
      </MantineProvider>,
    );
    const nav = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/shops/instances', '/parties/p1']);
    expect(within(nav).getByText('Ironbark Smithy')).toHaveAttribute('aria-current', 'page');
  });
});
