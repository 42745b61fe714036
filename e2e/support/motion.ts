/**
 * For `test.use(withMotion)`: a spec that runs with every transition drawn, as a visitor who never asked
 * for less motion sees them (the config's default is reduced motion; see playwright.config.ts).
 */
export const withMotion = { reducedMotion: 'no-preference' } as const;
