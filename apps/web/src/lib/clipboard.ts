import { useTimeout } from '@mantine/hooks';
import { useState } from 'react';

/**
 * Copies text to the clipboard. The Clipboard API exists only in a secure context (https, or localhost),
 * and a group's own server is often reached over plain http on the table's Wi-Fi (http://192.168.1.20:3000),
 * where Mantine's useClipboard can only fail. There the copy goes through a selected, hidden text area and
 * `execCommand('copy')`, which browsers still honour for a click.
 */
export async function copyText(text: string): Promise<void> {
  if (window.isSecureContext && navigator.clipboard) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const area = document.createElement('textarea');
  area.value = text;
  area.readOnly = true;
  area.setAttribute('aria-hidden', 'true');
  Object.assign(area.style, { position: 'fixed', top: '0', left: '0', opacity: '0', pointerEvents: 'none' });
  // Next to the button rather than at the end of the body: a dialog's focus trap keeps focus inside it.
  (focused?.parentElement ?? document.body).append(area);
  area.select();
  area.setSelectionRange(0, text.length);
  let copied = false;
  try {
    copied = document.execCommand('copy');
  } finally {
    area.remove();
    focused?.focus({ preventScroll: true });
  }
  if (!copied) throw new Error('The browser refused to copy');
}

/** Mantine's useClipboard, with `copyText`'s way for pages served over plain http. */
export function useCopyToClipboard({ timeout }: { timeout: number }) {
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const reset = useTimeout(() => setCopied(false), timeout);
  const copy = (text: string) => {
    copyText(text).then(
      () => {
        setError(null);
        setCopied(true);
        reset.clear();
        reset.start();
      },
      (failure: unknown) => {
        setCopied(false);
        setError(failure instanceof Error ? failure : new Error(String(failure)));
      },
    );
  };
  return { copy, copied, error };
}
