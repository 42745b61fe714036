import type { FormErrors, OnSubmit, SetErrors, SetFieldError } from '@mantine/form';
import { type ChangeEvent, useCallback, useRef, useState } from 'react';

/** What `getInputProps` gives a text field: what @mantine/form's controlled mode gives it. */
export interface TextInputProps {
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  error: React.ReactNode;
  'data-path': string;
  [prop: string]: unknown;
}

export interface TextForm<Values extends Record<string, string>> {
  values: Values;
  errors: FormErrors;
  submitting: boolean;
  getInputProps: (field: keyof Values & string) => TextInputProps;
  onSubmit: OnSubmit<Values>;
  setErrors: SetErrors;
  setFieldError: SetFieldError<Values>;
}

interface TextFormOptions<Values extends Record<string, string>> {
  initialValues: Values;
  validate: (values: Values) => FormErrors;
  enhanceGetInputProps?: (payload: { inputProps: TextInputProps }) => Record<string, unknown>;
}

/** @mantine/form's rule: an error that is null, undefined or false is no error. */
function keptErrors(errors: FormErrors): FormErrors {
  const kept: FormErrors = {};
  for (const [field, error] of Object.entries(errors)) {
    if (error !== null && error !== undefined && error !== false) kept[field] = error;
  }
  return kept;
}

/**
 * A form of text fields in @mantine/form's controlled mode, without its code: the sign-in page is in every
 * first load, and @mantine/form is 6 KB of its gzip JS for two fields (issue 13 §1: ≤ 150 KB). The parts the
 * sign-in page uses behave as useForm's do (text-form.test.tsx runs both side by side): `onSubmit` prevents
 * the browser's submit, validates, shows the errors and calls the failure handler, or else the handler with
 * `submitting` true until its promise settles; a change clears its field's error; `setErrors` and
 * `setFieldError` drop null, undefined and false. Other pages keep useForm (lists, nested paths, watching).
 */
export function useTextForm<Values extends Record<string, string>>({
  initialValues,
  validate,
  enhanceGetInputProps,
}: TextFormOptions<Values>): TextForm<Values> {
  const [values, setValues] = useState(initialValues);
  const valuesRef = useRef(values);
  const [errors, setErrorsState] = useState<FormErrors>({});
  const errorsRef = useRef(errors);
  const [submitting, setSubmitting] = useState(false);

  const setErrors: SetErrors = useCallback((next) => {
    setErrorsState((current) => {
      const kept = keptErrors(typeof next === 'function' ? next(current) : next);
      errorsRef.current = kept;
      return kept;
    });
  }, []);

  const clearFieldError = (field: string) => {
    if (errorsRef.current[field] === undefined) return;
    setErrors((current) => {
      const { [field]: _cleared, ...others } = current;
      return others;
    });
  };

  const setFieldError: SetFieldError<Values> = (field, error) => {
    const path = String(field);
    if (error === null || error === undefined || error === false) clearFieldError(path);
    else if (errorsRef.current[path] !== error) setErrors((current) => ({ ...current, [path]: error }));
  };

  const getInputProps = (field: keyof Values & string): TextInputProps => {
    const inputProps: TextInputProps = {
      onChange: (event) => {
        const value = event.currentTarget.value;
        clearFieldError(field);
        valuesRef.current = { ...valuesRef.current, [field]: value };
        setValues(valuesRef.current);
      },
      'data-path': field,
      error: errors[field],
      value: values[field] ?? '',
    };
    return Object.assign(inputProps, enhanceGetInputProps?.({ inputProps }));
  };

  const onSubmit: OnSubmit<Values> = (handleSubmit, handleValidationFailure) => (event) => {
    event?.preventDefault();
    setSubmitting(true);
    const found = keptErrors(validate(valuesRef.current));
    setErrors(found);
    if (Object.keys(found).length > 0) {
      handleValidationFailure?.(found, valuesRef.current, event);
      setSubmitting(false);
      return;
    }
    const submitted = handleSubmit(valuesRef.current, event);
    if (submitted instanceof Promise) submitted.finally(() => setSubmitting(false));
    else setSubmitting(false);
  };

  return { values, errors, submitting, getInputProps, onSubmit, setErrors, setFieldError };
}
