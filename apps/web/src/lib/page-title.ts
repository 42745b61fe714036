import { useDocumentTitle } from '@mantine/hooks';

export const APP_NAME = 'Haversack';

/** Every page names itself in the tab: "Sign in · Haversack". */
export function usePageTitle(title: string): void {
  useDocumentTitle(title ? `${title} · ${APP_NAME}` : APP_NAME);
}
