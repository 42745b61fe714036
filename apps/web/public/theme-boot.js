// Runs before the app's bundle and before the first paint: sets the colour scheme last used in this
// browser (key "haversack-theme", see src/lib/theme-storage.ts), so the page never flashes the other one.
// A file of its own because the Content-Security-Policy allows no inline scripts.
(() => {
  let theme = 'dark';
  try {
    const stored = window.localStorage.getItem('haversack-theme');
    if (stored === 'light' || stored === 'dark') theme = stored;
  } catch {
    // Storage switched off: the default (dark) applies.
  }
  document.documentElement.setAttribute('data-mantine-color-scheme', theme);
  document.documentElement.style.colorScheme = theme;
})();
