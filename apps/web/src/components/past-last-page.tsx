import { Button, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatCount } from '../lib/format';
import { EmptyState } from './empty-state';

export const pastLastPageTitle = 'This page is past the end';

/**
 * A list's page past its last one: an old link (/admin/users?page=99), or the last page's entries handled
 * or retried away. It says so and offers page 1 and the pager, where "No users found" said the list was
 * empty and left no way back.
 */
export function PastLastPage({
  totalPages,
  firstPage,
  pager,
}: {
  totalPages: number;
  /** Page 1 of the same list: a link where the page is in the address, else a button. */
  firstPage: { href: string } | { onClick: () => void };
  /** The list's own pager, so the pages there are can be reached. */
  pager: ReactNode;
}) {
  return (
    <Stack gap="sm">
      <EmptyState
        testId="past-last-page"
        title={pastLastPageTitle}
        message={
          totalPages < 1
            ? 'This list is empty.'
            : `There ${totalPages === 1 ? 'is one page' : `are ${formatCount(totalPages)} pages`} in this list.`
        }
        action={
          'href' in firstPage ? (
            <Button component={Link} to={firstPage.href} variant="light">
              Go to page 1
            </Button>
          ) : (
            <Button variant="light" onClick={firstPage.onClick}>
              Go to page 1
            </Button>
          )
        }
      />
      {pager}
    </Stack>
  );
}
