import { keepFocusThroughBusyButtons } from '../lib/keep-focus-through-busy-buttons';

/**
 * Chrome drops the focus to <body> when the focused button is disabled (a busy Save); happy-dom leaves it on
 * the button. The app then puts it back when the button is enabled again (main.tsx): both as in the browser.
 * Returns what undoes both.
 */
export function busyButtonsLikeTheBrowser(): () => void {
  const stopKeeping = keepFocusThroughBusyButtons();
  const observer = new MutationObserver((records) => {
    for (const { target } of records) {
      if (target instanceof HTMLButtonElement && target.disabled && document.activeElement === target) {
        // happy-dom's blur() ignores a disabled element: the focus leaves through a stand-in instead.
        const standIn = document.createElement('input');
        document.body.append(standIn);
        standIn.focus();
        standIn.remove();
      }
    }
  });
  observer.observe(document.body, { subtree: true, attributes: true, attributeFilter: ['disabled'] });
  return () => {
    observer.disconnect();
    stopKeeping();
  };
}
