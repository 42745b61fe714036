import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { initialsOf, OnlineUsers } from './online-users';

describe('OnlineUsers', () => {
  it('takes two letters from a username', () => {
    expect(initialsOf('bard_29f9051e')).toBe('BA');
    expect(initialsOf('lyra_song')).toBe('LS');
    expect(initialsOf('Pip')).toBe('PI');
    expect(initialsOf('')).toBe('?');
  });

  it('lists who is online, me last', () => {
    render(
      <MantineProvider env="test">
        <OnlineUsers
          users={[
            { id: 'me', username: 'gm_one' },
            { id: 'u2', username: 'bard_two' },
          ]}
          myUserId="me"
        />
      </MantineProvider>,
    );
    expect(screen.getByRole('list', { name: 'Online now: bard_two, gm_one (you)' })).toBeInTheDocument();
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['BT', 'GO']);
  });

  it('shows nobody while the connection is lost, rather than the last list', () => {
    render(
      <MantineProvider env="test">
        <OnlineUsers users={[{ id: 'u2', username: 'bard_two' }]} myUserId="me" live={false} />
      </MantineProvider>,
    );
    expect(screen.queryByTestId('online-users')).not.toBeInTheDocument();
  });
});
