/**
 * Button props that let a long label ("Upgrade to Adventurer — $5/month") wrap onto a second line on a
 * phone or in a narrow card, instead of being cut off.
 */
export const wrappingButtonProps = {
  h: 'auto',
  mih: 36,
  py: 6,
  styles: { label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.3 } },
} as const;
