/**
 * A <ul> that looks like the stack or grid it was before it became a list: no bullets, no indent, no
 * margins. A list of cards is a list to a screen reader ("list, 12 items"), whatever it looks like.
 */
export const listReset = { listStyle: 'none', margin: 0, padding: 0 } as const;
