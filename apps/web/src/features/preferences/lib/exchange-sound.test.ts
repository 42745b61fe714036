import { inventoryMessages, lootMessages } from '@haversack/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isExchangeMessage, playExchangeChime } from './exchange-sound';

describe('isExchangeMessage', () => {
  it('knows the success toasts of transfers, loot taken or claimed, purchases and sales', () => {
    expect(isExchangeMessage(inventoryMessages.transferred)).toBe(true);
    expect(isExchangeMessage('3 items transferred successfully')).toBe(true);
    expect(isExchangeMessage(lootMessages.taken)).toBe(true);
    expect(isExchangeMessage('2 items taken successfully')).toBe(true);
    expect(isExchangeMessage(lootMessages.claimed)).toBe(true);
    expect(isExchangeMessage('Purchase complete: 2 × Rope for 2 gp.')).toBe(true);
    expect(isExchangeMessage('Sale complete: 1 × Dagger for 1 gp.')).toBe(true);
  });

  it('leaves every other toast silent', () => {
    expect(isExchangeMessage('Item updated')).toBe(false);
    expect(isExchangeMessage('Container "Backpack" created')).toBe(false);
    expect(isExchangeMessage('Pip updated inventory')).toBe(false);
  });
});

describe('playExchangeChime', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('plays two short, quiet tones', () => {
    const started: number[] = [];
    const peaks: number[] = [];
    class FakeAudioContext {
      state = 'running';
      currentTime = 0;
      destination = {};
      resume = vi.fn();
      createOscillator() {
        return {
          type: '',
          frequency: { setValueAtTime: vi.fn() },
          connect: vi.fn(),
          start: (at: number) => started.push(at),
          stop: vi.fn(),
        };
      }
      createGain() {
        return {
          gain: {
            setValueAtTime: vi.fn(),
            exponentialRampToValueAtTime: (value: number) => peaks.push(value),
          },
          connect: vi.fn(),
        };
      }
    }
    vi.stubGlobal('AudioContext', FakeAudioContext);
    playExchangeChime();
    expect(started).toHaveLength(2);
    expect(Math.max(...peaks)).toBeLessThanOrEqual(0.1);
  });
});
