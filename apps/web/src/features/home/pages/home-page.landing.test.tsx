import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../../../stores/auth-store';
import { buildUser } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { HomePage } from './home-page';

const publicDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../public');

describe('the landing page at /home', () => {
  it('says what Haversack does, shows real screens and offers the way in', async () => {
    renderRoutes([{ path: '/home', element: <HomePage /> }], '/home');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Haversack');
    for (const name of ['A party stash', 'Shops', 'Loot', 'Live at the table', 'A ledger of every move'])
      expect(screen.getByRole('heading', { name })).toBeInTheDocument();
    const shots = screen.getAllByRole('img');
    expect(shots.length).toBeGreaterThanOrEqual(3);
    for (const shot of shots) {
      // Lossless WebP (a third of the PNGs they were), shipped from public/.
      const src = shot.getAttribute('src') ?? '';
      expect(src).toMatch(/^\/landing\/.+\.webp$/);
      expect(existsSync(path.join(publicDir, src))).toBe(true);
      expect(shot).toHaveAttribute('loading', 'lazy');
      expect(shot.getAttribute('alt')?.length).toBeGreaterThan(20);
      expect(shot).toHaveAttribute('width');
      expect(shot).toHaveAttribute('height');
    }
    expect(screen.getAllByRole('link', { name: 'Create an account' })[0]).toHaveAttribute(
      'href',
      '/register',
    );
    expect(screen.getAllByRole('link', { name: 'Sign in' })[0]).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Compare plans' })).toHaveAttribute(
      'href',
      '/subscription/compare',
    );
    expect(screen.getByRole('link', { name: 'About Haversack' })).toHaveAttribute('href', '/about');
    expect(screen.queryByRole('link', { name: 'Go to dashboard' })).not.toBeInTheDocument();
  });

  it('sends someone signed in to their dashboard instead', async () => {
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });
    renderRoutes([{ path: '/home', element: <HomePage /> }], '/home');
    expect((await screen.findAllByRole('link', { name: 'Go to dashboard' }))[0]).toHaveAttribute(
      'href',
      '/dashboard',
    );
    expect(screen.queryByRole('link', { name: 'Create an account' })).not.toBeInTheDocument();
  });
});
