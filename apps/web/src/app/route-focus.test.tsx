import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, Navigate, Outlet, type RouteObject, useNavigate, useSearchParams } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../stores/auth-store';
import { mockFetch, success } from '../test/fixtures';
import { renderRoutes } from '../test/render';
import { RouteFocus } from './route-focus';
import { routes as appRoutes } from './routes';

/**
 * A create page whose form sends the user on to `to`, as party and character creation do; `?sent` shows
 * the page without its form.
 */
function CreatePage({ to }: { to: string }) {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    navigate(to);
  };
  return (
    <main>
      <h1>Create Party</h1>
      {searchParams.has('sent') ? (
        <p>Sent</p>
      ) : (
        <form onSubmit={submit} aria-label="Party details">
          <label>
            Name <input name="name" />
          </label>
          <button type="submit">Create Party</button>
        </form>
      )}
    </main>
  );
}

/** A page that shows a loading heading first, then its own, as the detail pages do. */
function PartyPage() {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLoaded(true), 50);
    return () => clearTimeout(timer);
  }, []);
  return <main>{loaded ? <h1 key="party">The Fellowship</h1> : <h1 key="loading">Loading party</h1>}</main>;
}

/**
 * The phone's navigation drawer: a dialog whose link stays mounted while the page changes, then hides as
 * the drawer closes, and the browser drops the focus to <body> (jsdom does not, so the test does).
 */
function PhoneMenu() {
  const [open, setOpen] = useState(false);
  const closeLater = () =>
    setTimeout(() => {
      if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
      setOpen(false);
    }, 150);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open navigation
      </button>
      <div role="dialog" aria-label="Navigation" hidden={!open}>
        <Link to="/parties/7" onClick={closeLater}>
          The Fellowship
        </Link>
      </div>
    </>
  );
}

/** Like the app's root: the side navigation stays, pages change beside it. */
const routes: RouteObject[] = [
  {
    element: (
      <>
        <nav aria-label="Main">
          <Link to="/parties">Parties</Link>
          <Link to="/parties/7">Party seven</Link>
        </nav>
        <PhoneMenu />
        <Outlet />
        <RouteFocus />
      </>
    ),
    children: [
      { path: '/', element: <Navigate to="/parties/7" replace /> },
      { path: '/parties/new', element: <CreatePage to="/parties/7" /> },
      { path: '/parties/send', element: <CreatePage to="/parties/send?sent=1" /> },
      { path: '/parties/plain', element: <CreatePage to="/parties" /> },
      { path: '/parties/7', element: <PartyPage /> },
      {
        path: '/parties',
        element: (
          <main>
            <p>No heading here</p>
          </main>
        ),
      },
    ],
  },
];

async function submitForm() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Name'), 'The Fellowship');
  await user.click(screen.getByRole('button', { name: 'Create Party' }));
}

describe('RouteFocus', () => {
  it("gives the new page's heading the focus a form's submit button lost as it sent the user there", async () => {
    renderRoutes(routes, '/parties/new');
    await submitForm();
    const heading = await screen.findByRole('heading', { level: 1, name: 'The Fellowship' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(heading).toHaveAttribute('tabindex', '-1');
  });

  it('moves the focus to the main region of a page without a heading', async () => {
    renderRoutes(routes, '/parties/plain');
    await submitForm();
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus());
  });

  it('leaves the focus on a side navigation link that is still there', async () => {
    renderRoutes(routes, '/parties/new');
    const link = screen.getByRole('link', { name: 'Parties' });
    await userEvent.setup().click(link);
    expect(await screen.findByText('No heading here')).toBeInTheDocument();
    expect(link).toHaveFocus();
  });

  it('names the new page politely, once it has loaded, when the focus stays on a side navigation link', async () => {
    renderRoutes(routes, '/parties/new');
    const announcer = screen.getByTestId('route-announcer');
    expect(announcer).toHaveAttribute('aria-live', 'polite');
    const link = screen.getByRole('link', { name: 'Party seven' });
    await userEvent.setup().click(link);
    await waitFor(() => expect(announcer).toHaveTextContent(/^The Fellowship$/), { timeout: 3_000 });
    expect(link).toHaveFocus();
  });

  it("names a page without a heading by the document's title", async () => {
    renderRoutes(routes, '/parties/new');
    document.title = 'Parties · Haversack';
    await userEvent.setup().click(screen.getByRole('link', { name: 'Parties' }));
    await waitFor(() => expect(screen.getByTestId('route-announcer')).toHaveTextContent(/^Parties$/), {
      timeout: 3_000,
    });
  });

  it('says nothing more when the new heading takes the focus: it is read out already', async () => {
    renderRoutes(routes, '/parties/new');
    await submitForm();
    const heading = await screen.findByRole('heading', { level: 1, name: 'The Fellowship' });
    await waitFor(() => expect(heading).toHaveFocus());
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(screen.getByTestId('route-announcer')).toBeEmptyDOMElement();
  });

  it("gives the new page's heading the focus a link in the closing navigation drawer lost", async () => {
    renderRoutes(routes, '/parties/new');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Open navigation' }));
    await user.click(screen.getByRole('link', { name: 'The Fellowship' }));
    const heading = await screen.findByRole('heading', { level: 1, name: 'The Fellowship' });
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it('moves nothing on the first load, nor on its redirects', async () => {
    renderRoutes(routes, '/');
    await screen.findByRole('heading', { level: 1, name: 'The Fellowship' });
    expect(document.body).toHaveFocus();
  });

  it('moves nothing when only the query changes', async () => {
    renderRoutes(routes, '/parties/send');
    await submitForm();
    expect(await screen.findByText('Sent')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Create Party' })).not.toHaveFocus();
  });

  it("is in the app's routes, and finds the heading in the sign-in card's main region", async () => {
    mockFetch(() => success({ maintenance_mode: false, registration_open: true }));
    useAuthStore.setState({ isInitializing: false });
    renderRoutes(appRoutes, '/register');
    await userEvent.setup().click(await screen.findByRole('link', { name: 'Sign in' }));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    await waitFor(() => expect(heading).toHaveFocus());
  });
});
