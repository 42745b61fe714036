import { MAX_ITEM_VALUE, MAX_STACK_QUANTITY } from '@haversack/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../../test/render';
import { TemplateForm, templateFormValues } from './template-form';

// jsdom has no FontFaceSet; Mantine's autosizing description box listens to it.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget() });
}

describe('TemplateForm', () => {
  it('keeps the value and the stack size within what the server accepts', async () => {
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
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({
      base_value: MAX_ITEM_VALUE,
      stack_size: MAX_STACK_QUANTITY,
    });
  }, 30_000);
});
