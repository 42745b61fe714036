import type { Preferences } from '@haversack/contracts';
import { Anchor, Group, Paper, Radio, Stack, Switch, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { useUiStore } from '../../../stores/ui-store';
import { preferencesQueryOptions, useUpdatePreferences } from '../api/preferences-api';

type SwitchKey = Exclude<keyof Preferences, 'theme'>;
type PreferenceSwitch = { key: SwitchKey; label: string; description: string };

const switches: PreferenceSwitch[] = [
  { key: 'compactView', label: 'Compact view', description: 'Show lists and inventories with less spacing.' },
  {
    key: 'notificationsEnabled',
    label: 'Notifications',
    description: 'Show a notice when someone in your party changes an inventory, takes loot or comes online.',
  },
  {
    key: 'soundEffects',
    label: 'Sound effects',
    description: 'Play a short chime when a transfer, a purchase, a sale or taking loot succeeds.',
  },
];

const emailSwitches: PreferenceSwitch[] = [
  {
    key: 'announcementEmails',
    label: 'Announcements by email',
    description:
      'Receive news and announcements from the Haversack team. Mails about your account, such as password resets, and service notices always reach you.',
  },
];

/**
 * On a phone each theme's label is a 24 px target (screen sweep: 20 px, the circle's height); its row
 * centres the 20 px circle beside it rather than leave it at the top.
 */
const themeRadio = {
  classNames: { label: 'haversack-touch-target' },
  styles: { body: { alignItems: 'center' } },
} as const;

export function PreferencesPage() {
  usePageTitle('Preferences');
  const preferences = useQuery(preferencesQueryOptions());
  const update = useUpdatePreferences();
  // The theme shown is the one in use in this browser; choosing one here switches it and saves it.
  const theme = useUiStore((state) => state.theme);
  const setTheme = useUiStore((state) => state.setTheme);
  // The control answers in the same frame as the click; the cache catches up when the save settles.
  const [pending, setPending] = useState<Partial<Preferences>>({});
  const save = (change: Partial<Preferences>) => {
    setPending((current) => ({ ...current, ...change }));
    update.mutate(change, { onSettled: () => setPending({}) });
  };
  const shown: Preferences | undefined = preferences.data ? { ...preferences.data, ...pending } : undefined;

  return (
    <Stack gap="lg" maw={720}>
      <Stack gap={4}>
        <Title order={1}>Preferences</Title>
        <Text c="dimmed">Choose how Haversack looks and behaves for you. Changes are saved at once.</Text>
      </Stack>

      <RefreshFailedNote query={preferences} />
      {preferences.isPending ? (
        <Paper withBorder p="lg">
          <TextSkeleton lines={5} lineHeight="relaxed" />
        </Paper>
      ) : failedWithNothingToShow(preferences) ? (
        <ErrorPanel message="Your preferences could not be loaded." onRetry={() => preferences.refetch()} />
      ) : shown ? (
        <>
          <Paper withBorder p="lg" component="section" aria-labelledby="appearance-heading">
            <Stack gap="sm">
              <Title order={2} size="h4" id="appearance-heading">
                Appearance
              </Title>
              <Radio.Group
                label="Theme"
                value={theme}
                onChange={(value) => {
                  const next = value === 'light' ? 'light' : 'dark';
                  setTheme(next);
                  save({ theme: next });
                }}
                data-testid="preference-theme"
              >
                <Group gap="lg" mt="xs">
                  <Radio value="light" label="Light" {...themeRadio} />
                  <Radio value="dark" label="Dark" {...themeRadio} />
                </Group>
              </Radio.Group>
            </Stack>
          </Paper>

          {(
            [
              ['behaviour', 'Behaviour', switches],
              ['email', 'Email', emailSwitches],
            ] as const
          ).map(([id, heading, items]) => (
            <Paper key={id} withBorder p="lg" component="section" aria-labelledby={`${id}-heading`}>
              <Stack gap="md">
                <Title order={2} size="h4" id={`${id}-heading`}>
                  {heading}
                </Title>
                {items.map((item) => (
                  <Switch
                    key={item.key}
                    label={item.label}
                    description={item.description}
                    checked={shown[item.key]}
                    onChange={(event) => save({ [item.key]: event.currentTarget.checked })}
                    data-testid={`preference-${item.key}`}
                  />
                ))}
              </Stack>
            </Paper>
          ))}
        </>
      ) : null}

      <Group>
        <Anchor component={Link} to="/profile">
          Back to profile
        </Anchor>
      </Group>
    </Stack>
  );
}
