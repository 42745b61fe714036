import { type AuditLogFilter, auditLogFilterSchema } from '@haversack/contracts';
import { Button, Collapse, Group, Paper, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconFilter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { auditLogActionsQueryOptions } from '../api/audit-logs-api';
import { auditActionLabel } from '../lib/audit-labels';

const empty: Required<Record<keyof AuditLogFilter, string>> = {
  actor: '',
  action: '',
  target_type: '',
  target_id: '',
  from: '',
  to: '',
};

type DateErrors = Partial<Record<'from' | 'to', string>>;

/**
 * What the server would refuse (422) in the date range, by the contract's own field schemas, and an end
 * before the start, which it would answer with an empty log that looks like no entries.
 */
function dateErrors(from: string, to: string): DateErrors {
  const errors: DateErrors = {};
  for (const [field, text] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (text === '') continue;
    const checked = auditLogFilterSchema.shape[field].safeParse(text);
    if (!checked.success) errors[field] = checked.error.issues[0]?.message;
  }
  // A bare `to` is the whole of its day, so only the days are compared.
  if (!errors.from && !errors.to && from && to && from.slice(0, 10) > to.slice(0, 10))
    errors.to = 'to must not be before from';
  return errors;
}

/** The audit log's filters: actor, action, target and a date range, applied together. */
export function AuditLogFilters({
  value,
  onApply,
}: {
  value: AuditLogFilter;
  onApply: (filter: AuditLogFilter) => void;
}) {
  const [draft, setDraft] = useState({ ...empty, ...value });
  const [errors, setErrors] = useState<DateErrors>({});
  // The URL is the source of truth: back and forward buttons refill the form.
  useEffect(() => setDraft({ ...empty, ...value }), [value]);
  const actions = useQuery(auditLogActionsQueryOptions());
  // On a phone the six fields would push the log off the screen: they fold behind a button.
  const isPhone = useMediaQuery('(max-width: 47.99em)') ?? false;
  const [shown, { toggle }] = useDisclosure(false);
  const active = Object.values(value).filter(Boolean).length;

  const set = (key: keyof AuditLogFilter) => (next: string) => {
    setDraft((d) => ({ ...d, [key]: next }));
    if (key === 'from' || key === 'to') setErrors({});
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const refused = dateErrors(draft.from.trim(), draft.to.trim());
    setErrors(refused);
    if (refused.from || refused.to) return;
    const filter: AuditLogFilter = {};
    for (const [key, text] of Object.entries(draft) as [keyof AuditLogFilter, string][]) {
      if (text.trim() !== '') filter[key] = text.trim();
    }
    onApply(filter);
  };

  const fields = (
    <>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
        <TextInput
          label="Actor"
          description="Email (or part of it) or user id"
          value={draft.actor}
          onChange={(e) => set('actor')(e.currentTarget.value)}
        />
        <Select
          label="Action"
          description="What was done"
          placeholder={failedWithNothingToShow(actions) ? 'Actions could not be loaded' : 'Any action'}
          data={(actions.data ?? []).map((action) => ({ value: action, label: auditActionLabel(action) }))}
          value={draft.action || null}
          onChange={(next) => set('action')(next ?? '')}
          clearable
          searchable
          nothingFoundMessage="No such action"
          comboboxProps={{ withinPortal: true }}
        />
        <TextInput
          label="Target type"
          description="e.g. user, admin_session"
          value={draft.target_type}
          onChange={(e) => set('target_type')(e.currentTarget.value)}
        />
        <TextInput
          label="Target id"
          description="The id of the thing acted on"
          value={draft.target_id}
          onChange={(e) => set('target_id')(e.currentTarget.value)}
        />
        <TextInput
          type="date"
          label="From"
          description="First day (UTC)"
          value={draft.from}
          onChange={(e) => set('from')(e.currentTarget.value)}
          error={errors.from}
        />
        <TextInput
          type="date"
          label="To"
          description="Last day (UTC)"
          value={draft.to}
          onChange={(e) => set('to')(e.currentTarget.value)}
          error={errors.to}
        />
      </SimpleGrid>
      <Group mt="md" gap="sm">
        <Button type="submit">Apply filters</Button>
        <Button
          variant="default"
          onClick={() => {
            setDraft(empty);
            setErrors({});
            onApply({});
          }}
        >
          Clear
        </Button>
      </Group>
    </>
  );

  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-label="Filter the audit log">
      {isPhone ? (
        <>
          <Button
            variant="default"
            fullWidth
            leftSection={<IconFilter size={16} aria-hidden="true" />}
            onClick={toggle}
            aria-expanded={shown}
            aria-controls="audit-log-filter-fields"
          >
            {active > 0 ? `Filters (${active})` : 'Filters'}
          </Button>
          <Collapse expanded={shown} id="audit-log-filter-fields" pt={shown ? 'md' : 0}>
            {fields}
          </Collapse>
        </>
      ) : (
        fields
      )}
    </Paper>
  );
}
