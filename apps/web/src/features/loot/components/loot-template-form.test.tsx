import { lootMessages, lootTemplateFormSchema } from '@haversack/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes, withUnsavedChangesGuard } from '../../../test/render';
import { LootTemplateCreatePage } from '../pages/loot-template-create-page';
import { LootTemplateEditPage } from '../pages/loot-template-edit-page';
import { buildLootTemplate } from '../test/loot-fixtures';

// Mantine's autosizing Textarea listens for font loading, which happy-dom does not provide.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget() });
}

const routes = [
  { path: '/loot/templates/new', element: <LootTemplateCreatePage /> },
  { path: '/loot/templates/:id/edit', element: <LootTemplateEditPage /> },
  { path: '/loot/templates/:id/inventory', element: <p>Inventory of the new template</p> },
  { path: '/loot/templates/:id', element: <p>Template detail</p> },
];

type Handler = Parameters<typeof mockFetch>[0];
/** The subscription (plan limit hint) is not what these tests are about: it answers nothing useful. */
function serve(handler: Handler) {
  return mockFetch((request) =>
    request.url.includes('/subscription/') ? failure(404, 'NOT_FOUND', 'Not found') : handler(request),
  );
}

const writes = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(
    ([url, init]) => String(url).includes('/loot_templates') && (init?.method ?? 'GET') !== 'GET',
  );

describe('LootTemplateForm: the length of what is typed', () => {
  // The name has no native limit: typed past it, it says the contract's words (the test below).
  it('stops the description and source at the server’s limits, not before', async () => {
    serve(() => success(buildLootTemplate(), 201));
    renderRoutes(routes, '/loot/templates/new');
    const fields = {
      description: await screen.findByRole('textbox', { name: 'Description' }),
      source: screen.getByRole('textbox', { name: /^Source\b(?! type)/ }),
    };
    for (const [key, field] of Object.entries(fields)) {
      expect(field).toHaveAttribute('maxlength');
      const longest = Number(field.getAttribute('maxlength'));
      const accepts = (length: number) =>
        lootTemplateFormSchema.safeParse({ name: 'Hoard', [key]: 'x'.repeat(length) }).success;
      expect(accepts(longest), key).toBe(true);
      expect(accepts(longest + 1), key).toBe(false);
    }
  });
});

// Typing into Mantine's inputs is slow under happy-dom on a busy machine.
describe('LootTemplateForm', { timeout: 30_000 }, () => {
  it('checks the name with the contract’s words and sends nothing until it is right', async () => {
    const fetchMock = serve(() => success(buildLootTemplate(), 201));
    const user = userEvent.setup();
    renderRoutes(routes, '/loot/templates/new');
    await user.click(await screen.findByRole('button', { name: 'Create Loot Template' }));
    expect(await screen.findByText(lootMessages.nameRequired)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('textbox', { name: 'Name' }));
    await user.paste('x'.repeat(100));
    await user.click(screen.getByRole('button', { name: 'Create Loot Template' }));
    expect(await screen.findByText(lootMessages.nameTooLong)).toBeInTheDocument();
    expect(writes(fetchMock)).toHaveLength(0);
  });

  it('creates the template with the form’s body, says so and opens its items', async () => {
    const fetchMock = serve(() => success(buildLootTemplate({ id: 'new-1', name: 'Ogre Sack' }), 201));
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/loot/templates/new');
    await user.click(await screen.findByRole('textbox', { name: 'Name' }));
    await user.paste('  Ogre Sack ');
    await user.click(screen.getByRole('textbox', { name: 'Description' }));
    await user.paste('Smelly.');
    await user.click(screen.getByRole('combobox', { name: 'Source type' }));
    await user.click(await screen.findByRole('option', { name: 'Monster' }));
    await user.type(screen.getByRole('textbox', { name: 'Source' }), 'Ogre');
    await user.type(screen.getByLabelText('Tags', { selector: 'input' }), 'ogre{Enter}swamp{Enter}');
    await user.click(screen.getByRole('combobox', { name: 'Visibility' }));
    await user.click(await screen.findByRole('option', { name: 'Public' }));
    await user.click(screen.getByRole('button', { name: 'Create Loot Template' }));

    expect(await screen.findByText('Inventory of the new template')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/loot/templates/new-1/inventory');
    const [url, init] = writes(fetchMock)[0] ?? [];
    expect(String(url)).toMatch(/\/api\/v1\/loot_templates$/);
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({
      loot_template: {
        name: 'Ogre Sack',
        description: 'Smelly.',
        source_type: 'monster',
        source: 'Ogre',
        tag_list: ['ogre', 'swamp'],
        visibility: 'public',
      },
    });
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
      kind: 'success',
      message: lootMessages.created,
    });
  });

  it('puts the server’s field errors on their fields', async () => {
    serve(() =>
      failure(422, 'VALIDATION_ERROR', 'Validation failed', [
        { field: 'loot_template.name', message: 'That name is already taken' },
        { field: 'loot_template.source', message: 'Source is too long' },
      ]),
    );
    const user = userEvent.setup();
    renderRoutes(routes, '/loot/templates/new');
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Ogre Sack');
    await user.click(screen.getByRole('button', { name: 'Create Loot Template' }));
    expect(await screen.findByText('That name is already taken')).toBeInTheDocument();
    expect(screen.getByText('Source is too long')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
  });

  it('leaves a used-up plan to the toast, with its upgrade link, instead of repeating it inline', async () => {
    const refusal = 'Your Free plan allows 7 loot templates. Upgrade to create more.';
    serve(() =>
      jsonResponse(403, {
        status: 'error',
        error: {
          type: 'error',
          code: 'LIMIT_EXCEEDED',
          message: refusal,
          status: 403,
          details: [
            { field: 'loot_templates', message: refusal, resource: 'loot_templates', limit: 7, used: 7 },
          ],
        },
      }),
    );
    const user = userEvent.setup();
    renderRoutes(routes, '/loot/templates/new');
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Ogre Sack');
    await user.click(screen.getByRole('button', { name: 'Create Loot Template' }));
    await vi.waitFor(() =>
      expect(
        useUiStore
          .getState()
          .toasts.filter((toast) => toast.message === refusal)
          .map((toast) => toast.kind),
      ).toEqual(['error']),
    );
    expect(screen.queryByTestId('upgrade-prompt')).not.toBeInTheDocument();
  });

  it('edits a template from its current values and saves the change', async () => {
    const template = buildLootTemplate({
      id: 'lt-1',
      name: 'Goblin Boss Hoard',
      source: 'Goblin boss',
      source_type: 'monster',
      tag_list: ['goblin'],
    });
    const fetchMock = serve(({ init }) =>
      init.method === 'PATCH' ? success({ ...template, name: 'Goblin King Hoard' }) : success(template),
    );
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/loot/templates/lt-1/edit');
    const name = await screen.findByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Goblin Boss Hoard');
    expect(screen.getByRole('textbox', { name: 'Source' })).toHaveValue('Goblin boss');
    expect(screen.getByRole('combobox', { name: 'Source type' })).toHaveValue('Monster');
    await user.clear(name);
    await user.type(name, 'Goblin King Hoard');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/loot/templates/lt-1'));
    const [url, init] = writes(fetchMock)[0] ?? [];
    expect(String(url)).toMatch(/\/loot_templates\/lt-1$/);
    expect(init?.method).toBe('PATCH');
    expect(JSON.parse(String(init?.body)).loot_template).toMatchObject({
      name: 'Goblin King Hoard',
      source: 'Goblin boss',
      source_type: 'monster',
      tag_list: ['goblin'],
      visibility: 'private',
    });
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({ message: lootMessages.templateUpdated });
  });

  it('does not offer the form for a catalogue template', async () => {
    serve(() => success(buildLootTemplate({ id: 'sys', is_system: true, is_owner: false })));
    renderRoutes(routes, '/loot/templates/sys/edit');
    expect(await screen.findByText(lootMessages.systemTemplate)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Changes' })).not.toBeInTheDocument();
  });

  it('toasts "Please fill in all required fields." and asks before leaving an edited template', async () => {
    serve(() => success(buildLootTemplate({ id: 'lt-1', name: 'Goblin Boss Hoard' })));
    const user = userEvent.setup();
    const { router } = renderRoutes(withUnsavedChangesGuard(routes), '/loot/templates/lt-1/edit');
    const name = await screen.findByRole('textbox', { name: 'Name' });

    // Untouched, the page is left freely; edited, leaving asks.
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/elsewhere'));
    await router.navigate('/loot/templates/lt-1/edit');
    await user.clear(await screen.findByRole('textbox', { name: 'Name' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(lootMessages.nameRequired)).toBeInTheDocument();
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
      kind: 'error',
      message: 'Please fill in all required fields.',
    });
    expect(name).not.toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByRole('dialog', { name: 'Leave this page?' })).toHaveTextContent(
      'You have unsaved changes.',
    );
    expect(router.state.location.pathname).toBe('/loot/templates/lt-1/edit');
  });
});
