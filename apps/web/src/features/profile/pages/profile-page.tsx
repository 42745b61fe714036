import {
  authMessages,
  emailSchema,
  type PasswordChangeBody,
  passwordChangeFieldsSchema,
  TOAST_DEFAULT_MS,
  usernameSchema,
} from '@haversack/contracts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { z } from 'zod';
import { ResendVerificationButton } from '../../../components/resend-verification-button';
import { markInvalidFields, serverFieldErrors, useFocusFirstError } from '../../../lib/form-feedback';
import { toastMissingRequired, validateWith } from '../../../lib/forms';
import { isApiError, toastUnexplainedFailure } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import { updateSessionUser } from '../../../lib/session';
import { generalMessages, toast } from '../../../lib/toast';
import { useUnsavedChanges } from '../../../lib/unsaved-changes';
import { useCurrentUser } from '../../../stores/auth-store';
import { DiscordLinkSection } from '../../discord/components/discord-link-section';
import { SharedLinksSection } from '../../shares/components/shared-links-section';
import { changePassword, updateProfile } from '../api/profile-api';
import { signedInSessionKeys } from '../api/signed-in-sessions-api';
import { DeleteAccountSection, YourDataSection } from '../components/account-closure-sections';
import { ApiTokensSection } from '../components/api-tokens-section';
import { SignedInDevicesSection } from '../components/signed-in-devices-section';

// The current password is asked for only when the email changes (the server refuses the change without it).
const accountSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  current_password: z.string(),
});
type AccountFields = z.infer<typeof accountSchema>;

export function ProfilePage() {
  usePageTitle('Profile');
  const user = useCurrentUser();
  if (!user) return null;
  return (
    <Stack gap="lg" maw={720}>
      <Stack gap={4}>
        <Title order={1}>Profile</Title>
        <Text c="dimmed">
          Your account details, password, signed-in devices, API tokens, shared links and your data.
        </Text>
      </Stack>
      <AccountDetails />
      <ChangePassword />
      <SignedInDevicesSection />
      <ApiTokensSection />
      <SharedLinksSection />
      <DiscordLinkSection />
      <Paper withBorder p="lg" component="section" aria-labelledby="preferences-link-heading">
        <Stack gap="xs">
          <Title order={2} size="h4" id="preferences-link-heading">
            Preferences
          </Title>
          <Text size="sm" c="dimmed">
            Theme, compact view, notifications and sound effects.
          </Text>
          <Anchor component={Link} to="/profile/preferences">
            Edit preferences
          </Anchor>
        </Stack>
      </Paper>
      <YourDataSection />
      <DeleteAccountSection />
    </Stack>
  );
}

function AccountDetails() {
  const queryClient = useQueryClient();
  const user = useCurrentUser();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useFocusFirstError(
    useForm<AccountFields>({
      mode: 'controlled',
      initialValues: { username: user?.username ?? '', email: user?.email ?? '', current_password: '' },
      validate: validateWith(accountSchema),
      enhanceGetInputProps: markInvalidFields,
    }),
  );
  useUnsavedChanges(form.isDirty);
  if (!user) return null;
  const changesEmail = (email: string) => email.trim().toLowerCase() !== user.email.toLowerCase();
  const emailChanging = changesEmail(form.values.email);
  const required = (values: AccountFields): (keyof AccountFields)[] =>
    changesEmail(values.email) ? ['username', 'email', 'current_password'] : ['username', 'email'];

  const handleSubmit = async (values: AccountFields) => {
    setFormError(null);
    const change: Partial<AccountFields> = {};
    if (values.username.trim() !== user.username) change.username = values.username.trim();
    if (values.email.trim() !== user.email) {
      change.email = values.email.trim();
      change.current_password = values.current_password;
    }
    if (Object.keys(change).length === 0) {
      toast.info('Nothing to save: your details are unchanged.');
      return;
    }
    // The server treats a change of case alone as the same address (no link, nobody signed out).
    const emailChanged = change.email !== undefined && changesEmail(change.email);
    try {
      const updated = await updateProfile(change);
      updateSessionUser(updated);
      const saved = { username: updated.username, email: updated.email, current_password: '' };
      form.setInitialValues(saved);
      form.setValues(saved);
      if (emailChanged) {
        toast.success(authMessages.profileEmailChanged(updated.email), TOAST_DEFAULT_MS);
        // The other devices were signed out with the change.
        void queryClient.invalidateQueries({ queryKey: signedInSessionKeys.mine() });
      } else {
        toast.success(authMessages.profileUpdated);
      }
    } catch (error) {
      const fieldErrors = serverFieldErrors(error, ['username', 'email', 'current_password'], 'user.');
      if (fieldErrors) form.setErrors(fieldErrors);
      else if (isApiError(error) && !error.toastable) setFormError(error.message);
      else toastUnexplainedFailure(error, generalMessages.saveFailed);
    }
  };

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="account-heading">
      <form
        onSubmit={form.onSubmit(handleSubmit, toastMissingRequired(required))}
        noValidate
        aria-labelledby="account-heading"
      >
        <Stack gap="md">
          <Title order={2} size="h4" id="account-heading">
            Account details
          </Title>
          {formError ? (
            <Alert color="red" variant="light" data-testid="profile-error">
              {formError}
            </Alert>
          ) : null}
          <TextInput
            label="Username"
            autoComplete="username"
            required
            data-testid="profile-username"
            {...form.getInputProps('username')}
          />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            data-testid="profile-email"
            {...form.getInputProps('email')}
          />
          {emailChanging ? (
            <PasswordInput
              label="Current Password"
              description="Needed to change your email address. We will also tell your current address."
              autoComplete="current-password"
              required
              data-testid="profile-current-password"
              {...form.getInputProps('current_password')}
            />
          ) : null}
          <Group gap="sm">
            {user.email_verified ? (
              <Badge color="teal" variant="light" data-testid="email-verified-badge">
                Verified
              </Badge>
            ) : (
              <>
                <Badge color="yellow" variant="light" data-testid="email-unverified-badge">
                  Unverified
                </Badge>
                <ResendVerificationButton />
              </>
            )}
          </Group>
          <Group justify="flex-end">
            <Button type="submit" loading={form.submitting} data-testid="profile-save">
              Save Changes
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function ChangePassword() {
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useFocusFirstError(
    useForm<PasswordChangeBody>({
      mode: 'controlled',
      initialValues: { current_password: '', password: '', password_confirmation: '' },
      validate: validateWith(passwordChangeFieldsSchema),
      enhanceGetInputProps: markInvalidFields,
    }),
  );
  useUnsavedChanges(form.isDirty);

  const handleSubmit = async (values: PasswordChangeBody) => {
    setFormError(null);
    try {
      await changePassword(values);
      form.reset();
      toast.success(authMessages.passwordChanged);
      // The other devices were signed out with the change.
      void queryClient.invalidateQueries({ queryKey: signedInSessionKeys.mine() });
    } catch (error) {
      const fieldErrors = serverFieldErrors(error, ['current_password', 'password', 'password_confirmation']);
      if (fieldErrors) form.setErrors(fieldErrors);
      else if (isApiError(error) && !error.toastable) setFormError(error.message);
      else toastUnexplainedFailure(error, generalMessages.saveFailed);
    }
  };

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="password-heading">
      <form
        onSubmit={form.onSubmit(
          handleSubmit,
          toastMissingRequired<PasswordChangeBody>(['current_password', 'password', 'password_confirmation']),
        )}
        noValidate
        aria-labelledby="password-heading"
      >
        <Stack gap="md">
          <Title order={2} size="h4" id="password-heading">
            Change Password
          </Title>
          <Text size="sm" c="dimmed" data-testid="password-change-note">
            This keeps you signed in here, signs you out everywhere else and revokes your API tokens.
          </Text>
          {formError ? (
            <Alert color="red" variant="light" data-testid="password-change-error">
              {formError}
            </Alert>
          ) : null}
          <PasswordInput
            label="Current Password"
            autoComplete="current-password"
            required
            data-testid="password-current"
            {...form.getInputProps('current_password')}
          />
          <PasswordInput
            label="New Password"
            autoComplete="new-password"
            required
            description="At least 8 characters, with an uppercase letter, a lowercase letter and a number"
            data-testid="password-new"
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label="Confirm New Password"
            autoComplete="new-password"
            required
            data-testid="password-confirmation"
            {...form.getInputProps('password_confirmation')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={form.submitting} data-testid="password-change-submit">
              Change Password
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
