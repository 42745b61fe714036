import { inventoryMessages, lootMessages, shopMessages } from '@haversack/contracts';

/**
 * The success toasts of an exchange: an item moved between containers, loot taken or claimed, a purchase
 * or a sale in a shop. These, and no other toast, play the sound effect.
 */
const exactMessages: readonly string[] = [
  inventoryMessages.transferred,
  lootMessages.taken,
  lootMessages.claimed,
];
const messageStarts: readonly string[] = [shopMessages.purchased, shopMessages.sold];
const batchMessage = /^\d+ items (transferred|taken) successfully$/;

export function isExchangeMessage(message: string): boolean {
  return (
    exactMessages.includes(message) ||
    messageStarts.some((start) => message.startsWith(start)) ||
    batchMessage.test(message)
  );
}

let context: AudioContext | null = null;

/**
 * A short, soft two-note chime made with the Web Audio API (no sound file to load): two sine tones a fifth
 * apart, fading out within a quarter of a second, at a low volume.
 */
export function playExchangeChime(): void {
  const AudioContextClass = window.AudioContext;
  if (!AudioContextClass) return;
  context ??= new AudioContextClass();
  const audio = context;
  // A context made before any click starts suspended; the toast follows a click, so it may resume now.
  if (audio.state === 'suspended') void audio.resume();
  const start = audio.currentTime;
  for (const [index, frequency] of [660, 990].entries()) {
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    const at = start + index * 0.08;
    oscillator.type = 'sine';
    oscillator.frequency.setValueAtTime(frequency, at);
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.08, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.18);
    oscillator.connect(gain);
    gain.connect(audio.destination);
    oscillator.start(at);
    oscillator.stop(at + 0.2);
  }
}
