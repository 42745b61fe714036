import type { FormErrors, UseFormReturnType } from '@mantine/form';
import { useEffect, useRef, useState } from 'react';
import { isApiError } from './http-client';

// What a form shows of a refusal: the server's field errors, aria-invalid, the focus on the first field in
// error. No value import of @mantine/form here: the sign-in page, in every first load, uses these (issue 13 §1).

/**
 * The form field a detail's path names: the path itself when the form has it, else the field holding the list
 * the path points into ("tags.1" is an element of the one Tags field).
 */
function formFieldOf(path: string, fields: readonly string[]): string | undefined {
  if (fields.includes(path)) return path;
  const segments = path.split('.');
  const element = segments.findIndex((segment) => /^\d+$/.test(segment));
  if (element <= 0) return undefined;
  const list = segments.slice(0, element).join('.');
  return fields.includes(list) ? list : undefined;
}

/**
 * spec/01 §5: VALIDATION_ERROR details are kept for the forms. Puts each detail on its field (stripping a
 * body wrapper such as "user.") and returns whether any detail matched a field of the form.
 */
export function serverFieldErrors(error: unknown, fields: readonly string[], prefix = ''): FormErrors | null {
  if (!isApiError(error) || error.details.length === 0) return null;
  const errors: FormErrors = {};
  for (const detail of error.details) {
    const path = prefix && detail.field.startsWith(prefix) ? detail.field.slice(prefix.length) : detail.field;
    const field = formFieldOf(path, fields);
    if (field !== undefined && errors[field] === undefined) errors[field] = detail.message;
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

/**
 * Mantine's PasswordInput shows the error text but leaves aria-invalid off its input; set it for every field
 * so assistive technology hears which fields failed. Pass as `enhanceGetInputProps` to useForm.
 */
export function markInvalidFields({
  inputProps,
}: {
  inputProps: { error?: unknown };
}): Record<string, unknown> {
  return inputProps.error ? { 'aria-invalid': true } : {};
}

/** What useFocusFirstError wraps: Mantine's form, or the sign-in page's `useTextForm`. */
type FocusableForm<Values, TransformedValues> = Pick<
  UseFormReturnType<Values, TransformedValues>,
  'onSubmit' | 'setErrors' | 'setFieldError'
>;

/**
 * One submit at a time: while the request of a submit is out (its handler's promise), another submit does
 * nothing, so a double tap or Enter and a tap makes one party, not two.
 *
 * A refused submit takes the keyboard to the first field in error, in the order the form shows them, so a
 * screen reader reads its label, its invalid state and its message (left on the submit button, it said
 * nothing). Wraps `onSubmit`, for the form's own rules, and `setErrors` and `setFieldError`, for the server's:
 * `const form = useFocusFirstError(useForm({ ... }))`.
 */
export function useFocusFirstError<
  Values,
  TransformedValues,
  Form extends FocusableForm<Values, TransformedValues>,
>(form: Form & FocusableForm<Values, TransformedValues>): Form {
  const submittedForm = useRef<HTMLFormElement | null>(null);
  const [failedSubmits, setFailedSubmits] = useState(0);

  // After the render that marks the fields: focused earlier, a field would be read as still valid.
  useEffect(() => {
    if (failedSubmits === 0) return;
    // Another form on the page may be showing errors of its own (the profile has two): look in the one sent.
    const scope = submittedForm.current?.isConnected ? submittedForm.current : document;
    scope.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [failedSubmits]);

  // A second submit before the first one's request has settled (Enter and a tap, a double tap): it comes in
  // the same task, before React has drawn the button busy, and would make the thing twice.
  const submitting = useRef(false);
  const refocus = () => setFailedSubmits((count) => count + 1);

  return {
    ...form,
    onSubmit: (handleSubmit, handleValidationFailure) => {
      const submit = form.onSubmit(
        (values, event) => {
          const result: unknown = handleSubmit(values, event);
          if (result instanceof Promise) {
            submitting.current = true;
            const release = () => {
              submitting.current = false;
            };
            result.then(release, release);
          }
          return result as undefined;
        },
        (errors, values, event) => {
          handleValidationFailure?.(errors, values, event);
          refocus();
        },
      );
      return (event) => {
        if (submitting.current) {
          event?.preventDefault();
          return;
        }
        submittedForm.current = event?.currentTarget ?? null;
        submit(event);
      };
    },
    setErrors: (errors) => {
      form.setErrors(errors);
      if (typeof errors === 'function' || Object.keys(errors).length > 0) refocus();
    },
    setFieldError: (path, error) => {
      form.setFieldError(path, error);
      if (error) refocus();
    },
  };
}
