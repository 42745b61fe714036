type Navigate = (to: string) => void;

let appNavigate: Navigate | null = null;

/** The router registers itself here so that code drawn outside it (toasts) can move within the app. */
export function setAppNavigator(navigate: Navigate | null): void {
  appNavigate = navigate;
}

/**
 * Go to an in-app path without reloading the page. Toasts are drawn outside the router, so a router `<Link>`
 * cannot be used there; without a registered router this falls back to an ordinary page load.
 */
export function navigateInApp(to: string): void {
  if (appNavigate) appNavigate(to);
  else window.location.assign(to);
}
