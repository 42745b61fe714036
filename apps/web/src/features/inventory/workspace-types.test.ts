import type { Container } from '@haversack/contracts';
import { describe, expect, it } from 'vitest';
import { secondPanel } from './workspace-types';

const container = (id: string, owner: 'character' | 'party', canAct = true) =>
  ({ id, name: id, can_act: canAct, owner: { type: owner, id: `${owner}-1`, name: owner } }) as Container;

describe('secondPanel', () => {
  it('opens on the party stash when the first panel shows something else', () => {
    const containers = [
      container('pack', 'character'),
      container('pouch', 'character'),
      container('stash', 'party'),
    ];
    expect(secondPanel(containers, 'pack')).toEqual({ tab: 'container', containerId: 'stash' });
  });

  it('opens on the next container I can act on when the first panel shows the stash', () => {
    const containers = [
      container('stash', 'party'),
      container('theirs', 'character', false),
      container('pack', 'character'),
    ];
    expect(secondPanel(containers, 'stash')).toEqual({ tab: 'container', containerId: 'pack' });
  });

  it('opens on the Market, adding into the first container, when there is no other container', () => {
    expect(secondPanel([container('pack', 'character')], 'pack')).toEqual({
      tab: 'market',
      containerId: 'pack',
    });
  });
});
