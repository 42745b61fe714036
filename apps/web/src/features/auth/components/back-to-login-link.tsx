import { Anchor } from '@mantine/core';
import { Link } from 'react-router';

/** The password recovery pages' way back, under their form: centred, and a finger's target on a phone. */
export function BackToLoginLink() {
  return (
    <Anchor
      component={Link}
      to="/login"
      size="sm"
      ta="center"
      className="haversack-touch-target"
      // The touch target's flex box would set the text at its start: centred as the text was.
      style={{ justifyContent: 'center' }}
    >
      Back to login
    </Anchor>
  );
}
