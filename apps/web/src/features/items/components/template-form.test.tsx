import { MAX_ITEM_VALUE, MAX_STACK_QUANTITY } from '@haversack/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { renderRoutes, withUnsavedChangesGuard } from '../../../test/render';
import { TemplateForm, templateFormValues } from './template-form';

// jsdom has no FontFaceSet; Mantine's autosizing description box listens to it.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget() });
}

describe('TemplateForm', () => {
  it('refuses a value or stack size above what the server accepts, saying so, and sends one within it', async () => {
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <TemplateForm
              initial={{ ...templateFormValues(), name: 'Crown' }}
              submitLabel="Create"
              onSubmit={onSubmit}
              onCancel={() => {}}
            />
          ),
        },
      ],
      '/',
    );
    const user = userEvent.setup({ delay: null });
    const value = screen.getByLabelText('Base value');
    await user.clear(value);
    await user.type(value, '1000000000');
    const stackSize = screen.getByLabelText('Stack size');
    await user.clear(stackSize);
    await user.type(stackSize, '99999999');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    // Refused with the limit said, never cut down to it without a word.
    expect(await screen.findByText('Value can be at most 900,000')).toBeInTheDocument();
    expect(screen.getByText('Stack size can be at most 10,000,000')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
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
    });
  }, 30_000);
});

describe('TemplateForm: attunement', () => {
  it('says whether the item needs attunement, rather than guessing it from a rarity', async () => {
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <TemplateForm
              initial={{ ...templateFormValues(), name: 'Lucky charm', rarity: 'uncommon' }}
              submitLabel="Create"
              onSubmit={onSubmit}
              onCancel={() => {}}
            />
          ),
        },
      ],
      '/',
    );
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
  function renderForm(onSubmit = vi.fn().mockResolvedValue(undefined)) {
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
    const onSubmit = renderForm();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
        kind: 'error',
        message: 'Please fill in all required fields.',
      }),
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('labels the weight in lbs, and asks before leaving with changes', async () => {
    const user = userEvent.setup();
    renderForm();
    expect(screen.getByRole('textbox', { name: 'Weight (lbs)' })).toBeInTheDocument();
    await user.click(screen.getByRole('textbox', { name: 'Name' }));
    await user.paste('Elven Rope');
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByRole('dialog', { name: 'Leave this page?' })).toHaveTextContent(
      'You have unsaved changes.',
    );
  });
});
