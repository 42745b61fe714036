import type { Announcement } from '@haversack/contracts';
import { DEFAULT_THEME, MantineProvider, mergeMantineTheme, toRgba } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { contrastRatio, TEXT_CONTRAST } from '../../../app/color-contrast';
import { theme } from '../../../app/theme';
import { createQueryClient } from '../../../lib/query-client';
import { mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { AnnouncementBanners } from './announcement-banners';

function announcement(overrides: Partial<Announcement>): Announcement {
  return {
    id: 'a-1',
    title: 'Title',
    body: '',
    level: 'info',
    starts_at: '2026-03-01T10:00:00.000Z',
    ends_at: null,
    created_at: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

function serve(list: Announcement[]) {
  let active = [...list];
  return mockFetch(({ url, init }) => {
    const dismissed = url.match(/\/announcements\/([^/]+)\/dismiss$/);
    if (dismissed && init.method === 'POST') {
      active = active.filter((a) => a.id !== dismissed[1]);
      return new Response(null, { status: 204 });
    }
    return success(active);
  });
}

function renderBanners() {
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          <main tabIndex={-1}>
            <AnnouncementBanners />
          </main>
        ),
      },
    ],
    '/',
  );
}

const dismissButton = (title: string) =>
  within(screen.getByRole('region', { name: 'Announcements' })).getByRole('button', {
    name: `Dismiss announcement: ${title}`,
  });

describe('AnnouncementBanners', { timeout: 30_000 }, () => {
  it('orders critical, then warning, then info, the newest first within a level', async () => {
    serve([
      announcement({ id: 'i-old', title: 'Old info', created_at: '2026-03-01T10:00:00.000Z' }),
      announcement({ id: 'c', title: 'Outage', level: 'critical' }),
      announcement({ id: 'i-new', title: 'New info', created_at: '2026-03-05T10:00:00.000Z' }),
      announcement({ id: 'w', title: 'Maintenance', level: 'warning' }),
    ]);
    const user = userEvent.setup();
    renderBanners();
    await user.click(await screen.findByRole('button', { name: 'Show 2 more announcements' }));
    await waitFor(() => expect(screen.getAllByTestId('announcement-banner')).toHaveLength(4));
    expect(
      screen
        .getAllByTestId('announcement-banner')
        .map((b) => within(b).getByRole('button').getAttribute('aria-label')),
    ).toEqual([
      'Dismiss announcement: Outage',
      'Dismiss announcement: Maintenance',
      'Dismiss announcement: New info',
      'Dismiss announcement: Old info',
    ]);
  });

  it('after a dismissal from the keyboard, moves focus to the next banner, else to the main content', async () => {
    serve([
      announcement({ id: 'c', title: 'Outage', level: 'critical' }),
      announcement({ id: 'i', title: 'News' }),
    ]);
    const user = userEvent.setup();
    renderBanners();
    await waitFor(() => expect(screen.getAllByTestId('announcement-banner')).toHaveLength(2));
    dismissButton('Outage').focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(dismissButton('News')).toHaveFocus());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByTestId('announcement-banner')).toBeNull());
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus());
  });

  it('shows the two gravest of five, and a toggle that reveals and hides the rest; dismissal still works', async () => {
    serve([
      announcement({ id: 'i-1', title: 'Info one', created_at: '2026-03-01T10:00:00.000Z' }),
      announcement({ id: 'i-2', title: 'Info two', created_at: '2026-03-02T10:00:00.000Z' }),
      announcement({ id: 'w', title: 'Maintenance', level: 'warning' }),
      announcement({ id: 'c', title: 'Outage', level: 'critical' }),
      announcement({ id: 'i-3', title: 'Info three', created_at: '2026-03-03T10:00:00.000Z' }),
    ]);
    const user = userEvent.setup();
    renderBanners();
    const titles = () =>
      screen
        .getAllByTestId('announcement-banner')
        .map((b) =>
          within(b).getByRole('button').getAttribute('aria-label')?.replace('Dismiss announcement: ', ''),
        );
    await waitFor(() => expect(screen.getAllByTestId('announcement-banner')).toHaveLength(2));
    expect(titles()).toEqual(['Outage', 'Maintenance']);

    const toggle = screen.getByRole('button', { name: 'Show 3 more announcements' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const controlled = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(controlled).not.toBeNull();
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(titles()).toEqual(['Outage', 'Maintenance', 'Info three', 'Info two', 'Info one']);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAccessibleName('Show fewer announcements');
    expect(within(controlled as HTMLElement).getAllByTestId('announcement-banner')).toHaveLength(3);

    await user.click(toggle);
    expect(titles()).toEqual(['Outage', 'Maintenance']);

    // Closing a shown banner brings the next gravest into view.
    await user.click(dismissButton('Outage'));
    await waitFor(() => expect(titles()).toEqual(['Maintenance', 'Info three']));
    expect(screen.getByRole('button', { name: 'Show 2 more announcements' })).toBeInTheDocument();
  });

  it('wraps a long title and body inside the banner, keeping its close button in view', async () => {
    // Review (content): a 120-letter word pushed the × to x=1269 on a 375 px phone, and the banner hides its
    // overflow, so it could be neither read nor closed. jsdom lays nothing out: the styles that prevent it.
    const title = 'T'.repeat(120);
    serve([announcement({ id: 'long', title, body: `Read ${'p'.repeat(90)} first.` })]);
    renderBanners();
    const banner = await screen.findByTestId('announcement-banner');
    const label = document.getElementById(banner.getAttribute('aria-labelledby') ?? '');
    expect(label).toHaveTextContent(title);
    expect(label?.style.overflowWrap).toBe('anywhere');
    // The column holding the title and body may be narrower than its longest word.
    expect(label?.closest('.mantine-Alert-body')).toHaveStyle({ minWidth: '0' });
    const body = document.getElementById(banner.getAttribute('aria-describedby') ?? '');
    expect(body?.style.overflowWrap).toBe('anywhere');
    expect(dismissButton(title)).toHaveStyle({ flexShrink: '0' });
  });

  it('links the http(s) addresses of the body as the admin list does, and nothing else', async () => {
    serve([
      announcement({
        id: 'links',
        title: 'Maintenance tonight',
        body: 'Status: https://status.example.com/incidents/42. Not javascript:alert(1) nor <a href="x">x</a>',
      }),
    ]);
    renderBanners();
    const banner = await screen.findByTestId('announcement-banner');
    const link = await within(banner).findByRole('link', { name: 'https://status.example.com/incidents/42' });
    expect(link).toHaveAttribute('href', 'https://status.example.com/incidents/42');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')?.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
    expect(within(banner).getAllByRole('link')).toHaveLength(1);
    expect(banner).toHaveTextContent('Not javascript:alert(1) nor <a href="x">x</a>');
  });

  it('shows no toggle for two announcements', async () => {
    serve([
      announcement({ id: 'c', title: 'Outage', level: 'critical' }),
      announcement({ id: 'i', title: 'News' }),
    ]);
    renderBanners();
    await waitFor(() => expect(screen.getAllByTestId('announcement-banner')).toHaveLength(2));
    expect(screen.queryByRole('button', { name: /^Show/ })).toBeNull();
  });

  it('draws a tint in the dark scheme, not a solid block, with text that reads on it', async () => {
    serve([
      announcement({ id: 'c', title: 'Outage', level: 'critical' }),
      announcement({ id: 'w', title: 'Maintenance', level: 'warning' }),
    ]);
    render(
      <MantineProvider env="test" theme={theme} forceColorScheme="dark">
        <QueryClientProvider client={createQueryClient()}>
          <AnnouncementBanners />
        </QueryClientProvider>
      </MantineProvider>,
    );
    await waitFor(() => expect(screen.getAllByTestId('announcement-banner')).toHaveLength(2));
    const merged = mergeMantineTheme(DEFAULT_THEME, theme);
    const page = toRgba(merged.colors.dark[7]);
    for (const banner of screen.getAllByTestId('announcement-banner')) {
      const background = banner.style.getPropertyValue('--alert-bg');
      const text = banner.style.getPropertyValue('--alert-color');
      // A colour of its own, not Mantine's light-variant variable.
      expect(background).toMatch(/^#[0-9a-f]{6}$/i);
      const tint = toRgba(background);
      // Close to the page: a tint of the colour, where Mantine's dark light variant is an opaque dark red/brown.
      expect(
        Math.max(...(['r', 'g', 'b'] as const).map((c) => Math.abs(tint[c] - page[c]))),
      ).toBeLessThanOrEqual(40);
      expect(contrastRatio(text, background)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    }
  });
});
