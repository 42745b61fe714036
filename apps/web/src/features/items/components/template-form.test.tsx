import {
  itemTemplateFormSchema,
  MAX_ITEM_VALUE,
  MAX_ITEM_WEIGHT,
  MAX_STACK_QUANTITY,
} from '@haversack/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { numberFieldMessages } from '../../../components/number-field';
import { ApiError } from '../../../lib/http-client';
import { useUiStore } from '../../../stores/ui-store';
import { renderRoutes, withUnsavedChangesGuard } from '../../../test/render';
import { TemplateForm, templateFormValues } from './template-form';

// jsdom has no FontFaceSet; Mantine's autosizing description box listens to it.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget() });
}

/** The form for a new template, filled with `values`; returns its submit handler. */
function renderForm(
  values: Partial<ReturnType<typeof templateFormValues>> = {},
  onSubmit = vi.fn().mockResolvedValue(undefined),
) {
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <TemplateForm
            initial={{ ...templateFormValues(), ...values }}
            submitLabel="Create"
            onSubmit={onSubmit}
            onCancel={() => {}}
          />
        ),
      },
    ],
    '/',
  );
  return onSubmit;
}

describe('TemplateForm', () => {
  it('refuses a value or stack size above what the server accepts, saying so, and sends one within it', async () => {
    const onSubmit = renderForm({ name: 'Crown' });
    const user = userEvent.setup({ delay: null });
    const value = screen.getByLabelText('Base value');
    await user.clear(value);
    await user.type(value, '1000000000');
    const stackSize = screen.getByLabelText('Stack size');
    await user.clear(stackSize);
    await user.type(stackSize, '99999999');
    const weight = screen.getByLabelText(/^Weight/);
    await user.clear(weight);
    await user.type(weight, '123456.78');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    // Refused with the limit said, never cut down to it without a word.
    expect(await screen.findByText('Value can be at most 900,000')).toBeInTheDocument();
    expect(screen.getByText('Stack size can be at most 10,000,000')).toBeInTheDocument();
    // Said here, not only after a round trip (on a phone the server's answer landed under the header).
    expect(screen.getByText('Weight must be at most 100,000')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
    await user.clear(weight);
    await user.type(weight, String(MAX_ITEM_WEIGHT));
    await user.clear(value);
    await user.type(value, String(MAX_ITEM_VALUE));
    expect(value).toHaveValue('900,000');
    await user.clear(stackSize);
    await user.type(stackSize, String(MAX_STACK_QUANTITY));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({
      base_value: MAX_ITEM_VALUE,
      stack_size: MAX_STACK_QUANTITY,
      weight: MAX_ITEM_WEIGHT,
    });
  }, 30_000);
});

describe('TemplateForm: the length of what is typed', () => {
  it('stops the name and the description at the server’s limits, not before', () => {
    renderForm();
    const name = screen.getByRole('textbox', { name: 'Name' });
    const description = screen.getByRole('textbox', { name: 'Description' });
    expect(name).toHaveAttribute('maxlength');
    expect(description).toHaveAttribute('maxlength');
    const longest = (field: HTMLElement) => Number(field.getAttribute('maxlength'));
    const accepts = (values: { name: string; description?: string }) =>
      itemTemplateFormSchema.safeParse(values).success;
    expect(accepts({ name: 'n'.repeat(longest(name)) })).toBe(true);
    expect(accepts({ name: 'n'.repeat(longest(name) + 1) })).toBe(false);
    expect(accepts({ name: 'Rope', description: 'd'.repeat(longest(description)) })).toBe(true);
    expect(accepts({ name: 'Rope', description: 'd'.repeat(longest(description) + 1) })).toBe(false);
  });
});

describe('TemplateForm: numbers it would otherwise change', () => {
  it('refuses a negative weight, a weight finer than 0.001 and a fractional value, saying so on each field', async () => {
    const onSubmit = renderForm({ name: 'Crown' });
    const user = userEvent.setup({ delay: null });
    const weight = screen.getByRole('textbox', { name: 'Weight (lbs)' });
    const value = screen.getByLabelText('Base value');
    const stackSize = screen.getByLabelText('Stack size');
    await user.clear(weight);
    await user.type(weight, '-3');
    await user.clear(value);
    await user.type(value, '1.5');
    await user.clear(stackSize);
    await user.type(stackSize, '2.5');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    // What was typed stays as typed, with the reason beside it: never saved as 0, 1 or 2 without a word.
    expect(await screen.findByText('Weight cannot be negative')).toBeInTheDocument();
    expect(weight).toHaveValue('-3');
    // Whole-number fields refuse the point as it is typed (locales review, M1: "1.000" was saved as 1).
    expect(value).toHaveAccessibleDescription(expect.stringContaining(numberFieldMessages.wholeOnly));
    expect(value).toHaveValue('15');
    expect(stackSize).toHaveAccessibleDescription(expect.stringContaining(numberFieldMessages.wholeOnly));
    await user.clear(weight);
    await user.type(weight, '0.0005');
    // Thousandths, as the API takes them (itemWeightMessages): the fourth decimal is refused as it is typed,
    // saying so under the field (author review, H1), where it used to wait for Create.
    expect(weight).toHaveValue('0.000');
    expect(weight).toHaveAccessibleDescription(expect.stringContaining(numberFieldMessages.decimalsLimit(3)));
    expect(onSubmit).not.toHaveBeenCalled();
    await user.clear(weight);
    await user.type(weight, '0.25');
    await user.clear(value);
    await user.type(value, '15');
    await user.clear(stackSize);
    await user.type(stackSize, '20');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ weight: 0.25, base_value: 15, stack_size: 20 });
  }, 30_000);
});

// Locales review, M1: "1.000" typed by a German user (one thousand) was saved as 1 gp without a word.
describe('TemplateForm: a point in a whole number', () => {
  it('refuses the point of "1.000" in a value or a stack size, saying so, and never sends 1', async () => {
    const onSubmit = renderForm({ name: 'Kommatest Trank' });
    const user = userEvent.setup({ delay: null });
    const value = screen.getByLabelText('Base value');
    await user.clear(value);
    await user.type(value, '1.000');
    expect(value).toHaveAccessibleDescription(expect.stringContaining(numberFieldMessages.wholeOnly));
    const stackSize = screen.getByLabelText('Stack size');
    await user.clear(stackSize);
    await user.paste('2.000');
    expect(stackSize).toHaveAccessibleDescription(expect.stringContaining(numberFieldMessages.wholeOnly));
    // The thousand meant is what the field shows and sends; the pasted "2.000" is not taken at all.
    expect(value).toHaveValue('1,000');
    expect(stackSize).toHaveValue('');
    await user.type(stackSize, '2,000');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ base_value: 1000, stack_size: 2000 });
  }, 30_000);

  it('says how a weight of "1.000" is read, and still takes "2,5" as 2.5', async () => {
    const onSubmit = renderForm({ name: 'Amboss' });
    const user = userEvent.setup({ delay: null });
    const weight = screen.getByRole('textbox', { name: 'Weight (lbs)' });
    await user.clear(weight);
    await user.type(weight, '1.000');
    expect(weight).toHaveAccessibleDescription(
      expect.stringContaining('1.000 is read as 1: the point marks decimals. For 1000, type 1000.'),
    );
    await user.clear(weight);
    await user.type(weight, '2,5');
    expect(weight).not.toHaveAccessibleDescription(expect.stringContaining('is read as'));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ weight: 2.5 });
  }, 30_000);
});

describe('TemplateForm: weights as the API takes them', () => {
  it('takes a weight in thousandths, as the catalogue’s crossbow bolt weighs 0.075 lb', async () => {
    const onSubmit = renderForm({ name: 'Silvered bolt' });
    const user = userEvent.setup({ delay: null });
    const weight = screen.getByRole('textbox', { name: 'Weight (lbs)' });
    await user.clear(weight);
    await user.type(weight, '0.075');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ weight: 0.075 });
  }, 30_000);
});

// Content review, finding 4: "1e5" in Weight became 15 and "-3" in Stack size became 3, without a word.
describe('TemplateForm: characters a number field cannot hold', () => {
  it('refuses them, saying so under the field, rather than making another number of what was typed', async () => {
    renderForm({ name: 'Anvil' });
    const user = userEvent.setup({ delay: null });
    const weight = screen.getByRole('textbox', { name: 'Weight (lbs)' });
    await user.clear(weight);
    await user.type(weight, '1e5');
    expect(weight).toHaveAccessibleDescription(
      expect.stringContaining('Type the number in digits only (100000, not 1e5)'),
    );
    const stackSize = screen.getByLabelText('Stack size');
    await user.clear(stackSize);
    await user.type(stackSize, '-3');
    expect(stackSize).toHaveAccessibleDescription(
      expect.stringContaining('A negative number cannot be entered here'),
    );
    await user.clear(stackSize);
    await user.paste('-15');
    expect(stackSize).toHaveAccessibleDescription(
      expect.stringContaining('A negative number cannot be entered here'),
    );
    // Nothing was taken from the paste: the field is as it was, not 15.
    expect(stackSize).toHaveValue('');
    // A deletion takes the word back; digits alone are taken as typed.
    await user.type(stackSize, '20');
    await user.type(stackSize, '{Backspace}');
    expect(stackSize).not.toHaveAccessibleDescription(expect.stringContaining('cannot be entered'));
    expect(stackSize).toHaveValue('2');
  }, 30_000);
});

describe('TemplateForm: the server’s refusals', () => {
  it('puts a refused tag (item_template.tags.1) on the Tags field, not under the form', async () => {
    const onSubmit = vi.fn().mockRejectedValue(
      new ApiError({
        code: 'VALIDATION_ERROR',
        status: 422,
        message: 'Please check your input and try again',
        serverMessage: 'Please check your input and try again',
        details: [{ field: 'item_template.tags.1', message: 'A tag can be at most 60 characters' }],
      }),
    );
    renderForm({ name: 'Rope', tags: `rope, ${'x'.repeat(61)}` }, onSubmit);
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Create' }));
    const tags = screen.getByRole('textbox', { name: 'Tags' });
    await waitFor(() => expect(tags).toHaveAttribute('aria-invalid', 'true'));
    expect(tags).toHaveAccessibleDescription(expect.stringContaining('A tag can be at most 60 characters'));
    expect(screen.queryByText('Please check your input and try again')).not.toBeInTheDocument();
  }, 30_000);
});

describe('TemplateForm: a long description', () => {
  it('stops growing the description box after a few rows and lets it scroll inside', () => {
    renderForm({ description: 'A rope. '.repeat(1_250) });
    // Mantine hides the overflow of an autosized box only when nothing caps its rows (data-no-overflow): a
    // 10,000-character description then made the phone form thousands of pixels tall.
    expect(screen.getByRole('textbox', { name: 'Description' })).not.toHaveAttribute('data-no-overflow');
  });
});

describe('TemplateForm: attunement', () => {
  it('says whether the item needs attunement, rather than guessing it from a rarity', async () => {
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    renderForm({ name: 'Lucky charm', rarity: 'uncommon' }, onSubmit);
    const user = userEvent.setup({ delay: null });
    const box = screen.getByRole('checkbox', { name: /Requires attunement/ });
    expect(box).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({
      metadata: { rarity: 'uncommon', requires_attunement: false },
    });
    await user.click(box);
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(2));
    expect(onSubmit.mock.calls[1]?.[0]).toMatchObject({ metadata: { requires_attunement: true } });
  }, 30_000);
});

describe('TemplateForm and the general toasts (spec/01 §8)', { timeout: 30_000 }, () => {
  function renderGuardedForm(onSubmit = vi.fn().mockResolvedValue(undefined)) {
    renderRoutes(
      withUnsavedChangesGuard([
        {
          path: '/items/new',
          element: (
            <TemplateForm
              initial={templateFormValues()}
              submitLabel="Create"
              onSubmit={onSubmit}
              onCancel={() => {}}
            />
          ),
        },
      ]),
      '/items/new',
    );
    return onSubmit;
  }

  it('toasts "Please fill in all required fields." when the name is blank', async () => {
    const user = userEvent.setup();
    const onSubmit = renderGuardedForm();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
        kind: 'error',
        message: 'Please fill in all required fields.',
      }),
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('takes the required-fields toast away once the name is given and the refusal is a negative weight', async () => {
    useUiStore.setState({ toasts: [] });
    const user = userEvent.setup();
    const onSubmit = renderGuardedForm();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(useUiStore.getState().toasts.map((t) => t.message)).toContain(
        'Please fill in all required fields.',
      ),
    );

    await user.click(screen.getByRole('textbox', { name: 'Name' }));
    await user.paste('Rope of Testing');
    const weight = screen.getByRole('textbox', { name: 'Weight (lbs)' });
    await user.clear(weight);
    await user.type(weight, '-1');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Weight cannot be negative')).toBeInTheDocument();
    // The field says why; nothing still blames a required field that is filled.
    expect(useUiStore.getState().toasts.map((t) => t.message)).not.toContain(
      'Please fill in all required fields.',
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('labels the weight in lbs, and asks before leaving with changes', async () => {
    const user = userEvent.setup();
    renderGuardedForm();
    expect(screen.getByRole('textbox', { name: 'Weight (lbs)' })).toBeInTheDocument();
    await user.click(screen.getByRole('textbox', { name: 'Name' }));
    await user.paste('Elven Rope');
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByRole('dialog', { name: 'Leave this page?' })).toHaveTextContent(
      'You have unsaved changes.',
    );
  });
});
