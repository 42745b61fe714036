import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../../test/render';
import { joinLink, ShareJoinCodeDialog, shareMessages } from './share-join-code-dialog';

describe('ShareJoinCodeDialog', () => {
  it('links to the join page with the code in the address, so the page fills it in', () => {
    expect(joinLink('QPPWL9DJ', 'https://haversack.example')).toBe(
      'https://haversack.example/parties/join?code=QPPWL9DJ',
    );
    const [simple, friendly, detailed] = shareMessages(
      'The Lanterns',
      'QPPWL9DJ',
      'https://haversack.example',
    );
    expect(simple?.text).toBe('The Lanterns join code: QPPWL9DJ');
    expect(friendly?.text).toContain('https://haversack.example/parties/join?code=QPPWL9DJ');
    expect(detailed?.text).toContain('Join page: https://haversack.example/parties/join?code=QPPWL9DJ');
  });

  it('shows the link with the code in the messages it offers to copy', async () => {
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <ShareJoinCodeDialog
              opened
              onClose={() => undefined}
              partyName="The Lanterns"
              joinCode="QPPWL9DJ"
            />
          ),
        },
      ],
      '/',
    );
    await screen.findByRole('dialog', { name: 'Share Party Join Code' });
    expect(screen.getByText(/Use the join code QPPWL9DJ on the Join Party page/)).toHaveTextContent(
      `${window.location.origin}/parties/join?code=QPPWL9DJ`,
    );
  });
});
