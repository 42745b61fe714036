import { Alert } from '@mantine/core';
import { UpgradePrompt } from '../../../components/upgrade-prompt';
import { isApiError } from '../../../lib/http-client';
import { isPlanRefusal } from '../../../lib/upgrade-link';
import { refusalMessage } from '../api/transfer-messages';

/**
 * Why an inventory dialog's action was refused. A plan refusal says what the plan lacks and links to the
 * upgrade that lifts it, as the client's other refusals do; anything else is the server's reason in red.
 */
export function RefusalAlert({ error, fallback }: { error: unknown; fallback: string }) {
  if (isApiError(error) && isPlanRefusal(error)) return <UpgradePrompt error={error} />;
  return (
    <Alert color="red" variant="light" role="alert">
      {refusalMessage(error, fallback)}
    </Alert>
  );
}
