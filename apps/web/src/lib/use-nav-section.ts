import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useUiStore } from '../stores/ui-store';

/**
 * Marks the navigation entry `href` as the current one while this page shows, instead of the entry its
 * address falls under; null leaves the address to decide.
 */
export function useNavSection(href: string | null): void {
  const { pathname } = useLocation();
  const setNavSection = useUiStore((state) => state.setNavSection);
  useEffect(() => {
    if (href === null) return;
    setNavSection({ pathname, href });
    return () => setNavSection(null);
  }, [href, pathname, setNavSection]);
}
