import type { Party } from '@haversack/contracts';
import { Alert, Anchor, Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { dialogFirstField } from '../../../lib/dialog-first-field';
import { isApiError } from '../../../lib/http-client';
import { failedWithNothingToShow } from '../../../lib/load-failed';

interface PartiesLoad {
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  error: unknown;
  data: unknown;
  refetch: () => unknown;
}

/**
 * What a deploy dialog (a shop, loot) shows before its form: my parties loading, their load failing with
 * a retry, or no party I may deploy into with the way to make one. Once there is one, the form.
 */
export function DeployPartyGate({
  parties,
  eligible,
  noneText,
  whoMayDeploy,
  onClose,
  children,
}: {
  parties: PartiesLoad;
  eligible: Party[];
  noneText: string;
  whoMayDeploy: string;
  onClose: () => void;
  children: ReactNode;
}) {
  if (parties.isPending) return <Spinner label="Loading your parties" />;
  if (failedWithNothingToShow(parties)) {
    const error = parties.error;
    return (
      <Alert color="red" variant="light" role="alert" title="Unable to load your parties">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            {(isApiError(error) ? error.serverMessage : null) ?? 'Your parties could not be loaded.'}
          </Text>
          <Button variant="outline" color="red" size="xs" onClick={() => void parties.refetch()}>
            Try Again
          </Button>
        </Stack>
      </Alert>
    );
  }
  // My parties failed to refresh while the dialog was open: the form (or why not) stays, with a note.
  const refreshNote = <RefreshFailedNote query={parties} />;
  if (eligible.length === 0) {
    return (
      <Stack gap="sm">
        {refreshNote}
        <Text size="sm">{noneText}</Text>
        <Text size="sm" c="dimmed">
          {whoMayDeploy}
        </Text>
        <Group justify="flex-end">
          <Button component={Link} to="/parties/new" variant="light" onClick={onClose}>
            Create a Party
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <>
      {refreshNote}
      {children}
    </>
  );
}

/**
 * The party a deploy dialog deploys into, among those I may deploy into: the dialog's first field, where it
 * starts (as Add item and Set price start on theirs).
 */
export function DeployPartySelect({
  parties,
  value,
  onChange,
}: {
  parties: Party[];
  value: string | null;
  onChange: (partyId: string | null) => void;
}) {
  return (
    <Select
      {...dialogFirstField}
      label="Party"
      placeholder="Choose a party"
      data={parties.map((p) => ({ value: p.id, label: p.name }))}
      value={value}
      onChange={onChange}
      allowDeselect={false}
      required
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/**
 * On a list of templates, once my parties are in and none is one I may deploy into: why each card's Deploy
 * is disabled (its `id` describes them), said once, with the way to make a party, rather than a dialog
 * that could only say so after the click.
 */
export function NoDeployablePartyNote({
  id,
  noneText,
  whoMayDeploy,
}: {
  id: string;
  noneText: string;
  whoMayDeploy: string;
}) {
  return (
    <Alert
      role="note"
      variant="light"
      color="blue"
      icon={<IconInfoCircle aria-hidden="true" />}
      data-testid="no-deploy-party"
    >
      <Group justify="space-between" gap="xs">
        <Text size="sm" id={id}>
          <span>{noneText}</span> <span>{whoMayDeploy}</span>
        </Text>
        <Anchor component={Link} to="/parties/new" size="sm" c="inherit" fw={600}>
          Create a Party
        </Anchor>
      </Group>
    </Alert>
  );
}
