import { itemTemplateMessages } from '@haversack/contracts';
import { Alert, Anchor, Button, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { isRecordNotFound } from '../../../lib/http-client';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import {
  duplicateItemTemplate,
  itemTemplateKeys,
  itemTemplateQuery,
  updateItemTemplate,
} from '../api/item-templates-api';
import { changedFields, TemplateForm, templateFormValues } from '../components/template-form';
import { TemplateLoadError } from '../components/template-load-error';

/** /items/{id}/edit: the creator changes a template. */
export function ItemEditPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useQuery(itemTemplateQuery(id));
  usePageTitle(query.data ? `Edit ${query.data.name}` : 'Edit Item');
  const duplicate = useMutation({
    mutationFn: () => duplicateItemTemplate(id),
    onSuccess: async (copy) => {
      toast.success('Item template duplicated');
      await queryClient.invalidateQueries({ queryKey: itemTemplateKeys.all });
      navigate(`/items/${copy.id}/edit`);
    },
  });
  if (query.isPending) {
    return (
      <Stack gap="md" aria-busy="true">
        <Title order={1}>
          <VisuallyHidden>Loading item</VisuallyHidden>
        </Title>
        <Skeleton height={320} />
      </Stack>
    );
  }
  // A template deleted meanwhile (404 on a refresh, as on a first load) ends the page as the template's own
  // page does; a refresh that failed otherwise keeps the form with a note.
  if (query.isError && isRecordNotFound(query.error)) {
    return <TemplateLoadError error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (failedWithNothingToShow(query)) {
    return (
      <Stack gap="md" maw={640}>
        <Title order={1}>Edit Item</Title>
        <ErrorPanel
          title="Failed to load item"
          message={query.error.message}
          onRetry={() => void query.refetch()}
        />
        <Anchor component={Link} to="/items">
          Back to My Items
        </Anchor>
      </Stack>
    );
  }
  const template = query.data;
  const initial = templateFormValues(template);
  return (
    <Stack gap="lg" maw={820}>
      <Title order={1} style={{ overflowWrap: 'anywhere' }}>
        Edit {template.name}
      </Title>
      {/* The form keeps what was typed; the note says the template may have changed since it loaded. */}
      <RefreshFailedNote query={query} />
      {template.is_owner && template.held_by_others ? (
        // The server's own rule and words (items.service update): said before an edit, not on Save.
        <Alert role="region" color="yellow" variant="light" title="Other players hold this template">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{itemTemplateMessages.heldByOthers}</Text>
            <Text size="sm">
              Its tags, other than currency, category, magic and attunement, and whether it is public or
              unlisted can still change.
            </Text>
            <Button
              size="xs"
              variant="default"
              onClick={() => duplicate.mutate()}
              loading={duplicate.isPending}
            >
              Duplicate
            </Button>
          </Stack>
        </Alert>
      ) : null}
      {template.is_owner ? (
        <TemplateForm
          key={template.held_by_others ? 'held' : 'free'}
          heldByOthers={template.held_by_others ?? false}
          initial={initial}
          submitLabel="Save Changes"
          onCancel={() => navigate(`/items/templates/${template.id}`)}
          onSubmit={async (input) => {
            const changes = changedFields(initial, input);
            if (Object.keys(changes).length > 0) await updateItemTemplate(template.id, changes);
            toast.success('Item template updated successfully');
            await queryClient.invalidateQueries({ queryKey: itemTemplateKeys.all });
            navigate(`/items/templates/${template.id}`);
          }}
        />
      ) : (
        <Text>
          Only the creator of this item template can change it. Duplicate it to make your own version.
        </Text>
      )}
    </Stack>
  );
}
