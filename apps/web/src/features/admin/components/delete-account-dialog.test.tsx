import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { DeleteAccountDialog } from './delete-account-dialog';

const user = { id: '7f0c2a5e-1b2c-4d3e-8f90-123456789abc', email: 'mira@example.com' };
const deleted = {
  id: user.id,
  email: user.email,
  parties_handed_over: [],
  parties_deleted: [],
  characters_deleted: 1,
  templates_kept: 0,
};

const routes = [
  { path: '/admin/users/:id', element: <DeleteAccountDialog opened onClose={() => {}} user={user} /> },
  { path: '/admin/users', element: <p>All users</p> },
];

describe('DeleteAccountDialog', () => {
  it('stays disabled until the email is typed, then deletes with it and returns to the list', async () => {
    const fetchMock = mockFetch(() => success(deleted));
    renderRoutes(routes, `/admin/users/${user.id}`);
    const confirm = await screen.findByRole('button', { name: 'Delete account' });
    expect(confirm).toBeDisabled();
    await userEvent.type(screen.getByLabelText(/Type the user’s email to confirm/), 'mira@example.co');
    expect(confirm).toBeDisabled();
    await userEvent.type(screen.getByLabelText(/Type the user’s email to confirm/), 'm');
    expect(confirm).toBeEnabled();
    await userEvent.click(confirm);

    expect(await screen.findByText('All users')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'DELETE');
    expect(String(call?.[0])).toContain(`/admin/users/${user.id}`);
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ confirm_email: 'mira@example.com' });
  });

  it('says nothing of sponsorships when the user gives none', async () => {
    mockFetch(() => success(deleted));
    renderRoutes(routes, `/admin/users/${user.id}`);
    expect(await screen.findByRole('dialog', { name: 'Delete this account' })).not.toHaveTextContent(
      /sponsor/i,
    );
  });

  it('names every sponsorship the user gives, which end with the account', async () => {
    mockFetch(() => success(deleted));
    const given = (username: string, party_name: string) => ({ username, party_name });
    renderRoutes(
      [
        {
          path: '/admin/users/:id',
          element: (
            <DeleteAccountDialog
              opened
              onClose={() => {}}
              user={user}
              sponsorshipsGiven={[given('erin', 'Mistwood'), given('fred', 'Brackenfold')]}
            />
          ),
        },
      ],
      `/admin/users/${user.id}`,
    );
    expect(await screen.findByRole('dialog', { name: 'Delete this account' })).toHaveTextContent(
      'their 2 sponsorships end at once (erin in Mistwood, fred in Brackenfold): each of them is back on their own plan there;',
    );
  });

  it('shows the server’s refusal and stays open', async () => {
    mockFetch(() => failure(403, 'FORBIDDEN', 'Admins cannot be deleted: revoke their admin flag first.'));
    renderRoutes(routes, `/admin/users/${user.id}`);
    await userEvent.type(await screen.findByLabelText(/Type the user’s email to confirm/), user.email);
    await userEvent.click(screen.getByRole('button', { name: 'Delete account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Admins cannot be deleted');
    expect(screen.queryByText('All users')).not.toBeInTheDocument();
  });
});
