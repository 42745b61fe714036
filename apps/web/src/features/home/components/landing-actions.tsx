import { Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import { useAuthStore } from '../../../stores/auth-store';

/** The way in: sign up or sign in; someone already signed in goes straight to their dashboard. */
export function LandingActions() {
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  return (
    <Group gap="sm">
      {isAuthenticated ? (
        <Button component={Link} to="/dashboard" size="md">
          Go to dashboard
        </Button>
      ) : (
        <>
          <Button component={Link} to="/register" size="md">
            Create an account
          </Button>
          <Button component={Link} to="/login" variant="default" size="md">
            Sign in
          </Button>
        </>
      )}
    </Group>
  );
}
