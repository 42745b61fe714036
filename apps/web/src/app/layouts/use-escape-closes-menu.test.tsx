import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useEscapeClosesMenu } from './use-escape-closes-menu';

function Shell({ open, isMobile, close }: { open: boolean; isMobile: boolean; close: () => void }) {
  const menuKeys = useEscapeClosesMenu({ open, isMobile, close });
  return (
    <>
      <button type="button" ref={menuKeys.burgerRef}>
        Open admin navigation
      </button>
      <nav ref={menuKeys.menuRef}>
        <a href="/admin/users">Users</a>
        <a href="/admin/parties">Parties</a>
      </nav>
      <main inert={menuKeys.coversPage}>
        <a href="/admin/users/1">Back to users</a>
      </main>
    </>
  );
}

describe('useEscapeClosesMenu', () => {
  it("closes a phone's open menu on Escape from a link in it, focus back on the burger", async () => {
    const close = vi.fn();
    render(<Shell open isMobile close={close} />);
    screen.getByRole('link', { name: 'Users' }).focus();
    await userEvent.keyboard('{Escape}');
    expect(close).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: 'Open admin navigation' })).toHaveFocus();
  });

  it("keeps Tab in a phone's open menu, makes the page inert, and closes on Escape from anywhere", async () => {
    const close = vi.fn();
    render(<Shell open isMobile close={close} />);
    const users = screen.getByRole('link', { name: 'Users' });
    await waitFor(() => expect(users).toHaveFocus());
    await userEvent.tab();
    expect(screen.getByRole('link', { name: 'Parties' })).toHaveFocus();
    await userEvent.tab();
    expect(users).toHaveFocus();
    expect(screen.getByRole('main')).toHaveAttribute('inert');
    users.blur();
    await userEvent.keyboard('{Escape}');
    expect(close).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: 'Open admin navigation' })).toHaveFocus();
  });

  it('leaves a wide screen’s menu, and a closed one, alone', async () => {
    const close = vi.fn();
    const { rerender } = render(<Shell open isMobile={false} close={close} />);
    screen.getByRole('link', { name: 'Users' }).focus();
    await userEvent.keyboard('{Escape}');
    rerender(<Shell open={false} isMobile close={close} />);
    await userEvent.keyboard('{Escape}');
    expect(close).not.toHaveBeenCalled();
    expect(screen.getByRole('link', { name: 'Users' })).toHaveFocus();
  });
});
