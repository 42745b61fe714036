import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../../test/render';
import { AboutPage } from '../../about/pages/about-page';
import { unbuiltMention } from '../../subscription/subscription-fixtures';
import { HomePage } from './home-page';

describe('what /home and /about promise (issue 12)', () => {
  it.each([
    ['/home', <HomePage key="home" />],
    ['/about', <AboutPage key="about" />],
  ])('%s promises only what works on this server', async (path, element) => {
    renderRoutes([{ path, element }], path);
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(document.body).toHaveTextContent(/shops/i);
    const mention = unbuiltMention();
    if (mention) expect(document.body).not.toHaveTextContent(mention);
  });
});
