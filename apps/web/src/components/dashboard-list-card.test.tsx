import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../test/render';
import { DashboardListCard } from './dashboard-list-card';

function card(name: string, title: string) {
  return (
    <DashboardListCard<string>
      name={name}
      title={title}
      viewAllTo={`/${name}`}
      query={{ isPending: false, isError: false, data: ['one'], isFetching: false, refetch: () => undefined }}
      errorText="Could not load"
      empty={<p>None yet</p>}
      items={['one']}
      total={1}
      itemKey={(item) => item}
      renderItem={(item) => <span>{item}</span>}
    />
  );
}

describe('DashboardListCard', () => {
  it('names each "View all" after its list, so that two cards’ links tell apart', async () => {
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <>
              {card('characters', 'My Characters')}
              {card('parties', 'My Parties')}
            </>
          ),
        },
      ],
      '/',
    );
    expect(await screen.findByRole('link', { name: 'View all: My Characters' })).toHaveAttribute(
      'href',
      '/characters',
    );
    expect(screen.getByRole('link', { name: 'View all: My Parties' })).toHaveAttribute('href', '/parties');
  });
});
