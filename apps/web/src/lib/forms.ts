import type { FormErrors } from '@mantine/form';
import { schemaResolver } from '@mantine/form';
import type { z } from 'zod';
import { dismissRequiredFieldsToast, generalMessages, toast } from './toast';

/**
 * Validate a Mantine form with a contracts schema (zod 4 is a Standard Schema). Synchronous, so the first
 * failing rule of each field shows at once: issue paths become field names ("password_confirmation").
 */
export function validateWith(schema: z.ZodType): (values: unknown) => FormErrors {
  return schemaResolver(schema, { sync: true });
}

const isBlank = (value: unknown) =>
  value === null ||
  value === undefined ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

/**
 * spec/01 §8 "Please fill in all required fields.": a submit refused because a required field is blank says
 * so once, beside each field's own message. Pass as the second argument of `form.onSubmit`; `required`
 * may depend on the values (the current password only when the email changes).
 *
 * Only a blank required field the form refused counts: a submit refused for another reason (a negative
 * weight, an invalid email beside a still-empty field the rules let pass) says nothing more than its field
 * errors, and takes away the toast an earlier blank submit left up, which would now blame the wrong thing.
 */
export function toastMissingRequired<Values>(
  required: readonly (keyof Values & string)[] | ((values: Values) => readonly (keyof Values & string)[]),
): (errors: FormErrors, values: Values) => void {
  return (errors, values) => {
    const fields = typeof required === 'function' ? required(values) : required;
    if (fields.some((field) => isBlank(values[field]) && Boolean(errors[field]))) {
      toast.error(generalMessages.requiredFields);
    } else {
      dismissRequiredFieldsToast();
    }
  };
}

/**
 * The fields of `after` that differ from `before` (spec/02 §7: a PATCH carries the changed fields): a save
 * from a form opened a while ago must not write back what someone changed meanwhile in another tab.
 */
export function changedFields<Values extends object>(before: Values, after: Values): Partial<Values> {
  const change: Partial<Values> = {};
  for (const key of Object.keys(after) as (keyof Values)[]) {
    if (after[key] !== before[key]) change[key] = after[key];
  }
  return change;
}
