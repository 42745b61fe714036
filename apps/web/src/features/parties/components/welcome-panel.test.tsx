import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../../test/render';
import { WelcomePanel } from './welcome-panel';

describe('WelcomePanel', () => {
  it('is a standing notice present as the page opens: a status, not an alert (docs/decisions.md)', () => {
    renderRoutes(
      [
        {
          path: '/',
          element: <WelcomePanel partyId="party-1" partyName="The Company" onDismiss={() => {}} />,
        },
      ],
      '/',
    );
    const panel = screen.getByTestId('welcome-panel');
    expect(panel).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Welcome to The Company!');
  });
});
