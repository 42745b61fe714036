import { Anchor } from '@mantine/core';

/** The id of the page's main landmark, which the skip link focuses (it has tabIndex -1 for that). */
export const mainContentId = 'main-content';

/**
 * "Skip to main content", the first stop of the Tab key, shown only when focused. It moves the focus to
 * the main landmark itself: following its `#main-content` (kept for a page without JavaScript) changed the
 * URL's hash, which the router takes for a navigation, and on a page with an unsaved-changes blocker
 * (/characters/new, /parties/new, /parties/join) React Router warned that such a blocker fails silently.
 */
export function SkipToMainLink() {
  return (
    <Anchor
      href={`#${mainContentId}`}
      className="skip-link"
      onClick={(event) => {
        const main = document.getElementById(mainContentId);
        if (!main) return;
        event.preventDefault();
        main.focus();
      }}
    >
      Skip to main content
    </Anchor>
  );
}
