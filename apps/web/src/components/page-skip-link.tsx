import { Anchor } from '@mantine/core';
import { type ReactNode, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { mainContentId } from './skip-to-main-link';

/** The place in the app header, right after "Skip to main content", where pages add skip links. */
export const pageSkipLinksId = 'page-skip-links';

/**
 * A skip link of the page's own, among the first stops of the Tab key (the header's skip links), shown
 * only when focused. `onActivate` moves the focus (a link to an id would not reach a roving tabindex).
 */
export function PageSkipLink({ children, onActivate }: { children: ReactNode; onActivate: () => void }) {
  const [host, setHost] = useState<HTMLElement | null>(null);
  useEffect(() => setHost(document.getElementById(pageSkipLinksId)), []);
  if (!host) return null;
  return createPortal(
    <Anchor
      href={`#${mainContentId}`}
      className="skip-link"
      onClick={(event) => {
        event.preventDefault();
        onActivate();
      }}
    >
      {children}
    </Anchor>,
    host,
  );
}
