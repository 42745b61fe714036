import { Button, type ButtonProps } from '@mantine/core';
import { useState } from 'react';
import { resendVerificationRequest } from '../lib/auth-api';
import { toast } from '../lib/toast';

/** Sends a new verification link to the signed-in user's address. */
export function ResendVerificationButton(props: ButtonProps) {
  const [sending, setSending] = useState(false);
  const resend = async () => {
    setSending(true);
    try {
      toast.success(await resendVerificationRequest());
    } catch {
      // The HTTP client has already shown the catalogue toast for this failure.
    } finally {
      setSending(false);
    }
  };
  return (
    <Button
      variant="default"
      size="xs"
      loading={sending}
      onClick={resend}
      data-testid="resend-verification"
      {...props}
    >
      Resend verification email
    </Button>
  );
}
