import { DetailLoadError } from '../../../components/detail-load-error';

/** A template's page or its edit form could not load it: the same words on both, back to My Items. */
export function TemplateLoadError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  return (
    <DetailLoadError
      error={error}
      onRetry={onRetry}
      subject="Item"
      notFoundText="The item template might not exist or you may not have permission to view it."
      back={{ href: '/items', label: 'Back to My Items' }}
    />
  );
}
