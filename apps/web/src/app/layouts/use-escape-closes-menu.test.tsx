import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useEscapeClosesMenu } from './use-escape-closes-menu';

function Shell({ open, isMobile, close }: { open: boolean; isMobile: boolean; close: () => void }) {
  const menuKeys = useEscapeClosesMenu({ open, isMobile, close });
  return (
    <>
      <button type="button" ref={menuKeys.burgerRef} onKeyDown={menuKeys.onKeyDown}>
        Open admin navigation
      </button>
      <nav onKeyDown={menuKeys.onKeyDown}>
        <a href="/admin/users">Users</a>
      </nav>
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
