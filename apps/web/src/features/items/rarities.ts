/** The rarities of the SRD catalogue, lower-case as it writes them; homebrew items choose among them too. */
export const rarities = ['common', 'uncommon', 'rare', 'very rare', 'legendary', 'artifact'] as const;

export const rarityOptions = rarities.map((r) => ({ value: r, label: r[0]?.toUpperCase() + r.slice(1) }));
