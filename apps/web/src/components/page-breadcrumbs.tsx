import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { Link } from 'react-router';

/**
 * A page's trail as a navigation landmark ("Breadcrumb"), ending in the page itself marked current, as the
 * WAI-ARIA breadcrumb pattern has it: Mantine's Breadcrumbs is a plain <div> that screen readers could not
 * find or tell apart from the page (screen review).
 */
export function PageBreadcrumbs({
  trail,
  current,
}: {
  trail: { label: string; to: string }[];
  current: string;
}) {
  return (
    <nav aria-label="Breadcrumb">
      <Breadcrumbs>
        {trail.map((crumb) => (
          <Anchor key={crumb.to} component={Link} to={crumb.to} size="sm">
            {crumb.label}
          </Anchor>
        ))}
        <Text size="sm" c="dimmed" aria-current="page" style={{ overflowWrap: 'anywhere' }}>
          {current}
        </Text>
      </Breadcrumbs>
    </nav>
  );
}
