import { describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../stores/ui-store';
import { dismissToast, generalMessages, toast } from './toast';

describe('toasts (spec/01 §8, §9)', () => {
  it('keeps a confirm toast, one that offers a choice, 6 s', () => {
    toast.confirm('success', 'Item transferred successfully', { label: 'Undo', onClick: vi.fn() });
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
      kind: 'success',
      message: 'Item transferred successfully',
      duration: 6_000,
    });
  });

  it('has the spec’s general messages, word for word', () => {
    expect(generalMessages).toEqual({
      requiredFields: 'Please fill in all required fields.',
      saveFailed: 'Failed to save. Please try again.',
      deleteFailed: 'Failed to delete. Please try again.',
      unsavedChanges: 'You have unsaved changes.',
      comingSoon: 'This feature is coming soon!',
    });
  });

  it('takes the required-fields warning away once something succeeds, and leaves other failures', () => {
    const missing = toast.error(generalMessages.requiredFields);
    const other = toast.error('Failed to save. Please try again.');
    const live = () => useUiStore.getState().toasts.map((t) => t.id);
    expect(live()).toEqual(expect.arrayContaining([missing, other]));
    toast.success('Character created successfully!');
    expect(live()).not.toContain(missing);
    expect(live()).toContain(other);
  });

  it('shows the same news once: a repeat replaces the toast that says it', () => {
    const live = () => useUiStore.getState().toasts.map((t) => t.message);
    const before = live().filter((m) => m === 'Gm updated inventory').length;
    expect(before).toBe(0);
    const first = toast.info('Gm updated inventory');
    const second = toast.info('Gm updated inventory');
    toast.info('Pia updated inventory');
    expect(live().filter((m) => m === 'Gm updated inventory')).toHaveLength(1);
    expect(useUiStore.getState().toasts.map((t) => t.id)).toContain(second);
    expect(useUiStore.getState().toasts.map((t) => t.id)).not.toContain(first);
    expect(live()).toContain('Pia updated inventory');
  });

  it('shows the same words once even when they come as another kind: the first one stays', () => {
    const live = () =>
      useUiStore.getState().toasts.filter((t) => t.message === 'Your account has been deleted.');
    const success = toast.success('Your account has been deleted.');
    expect(toast.sessionExpired('Your account has been deleted.')).toBe(success);
    expect(live().map((t) => t.id)).toEqual([success]);
    expect(live()[0]?.kind).toBe('success');
    dismissToast(success);
    const expiry = toast.sessionExpired('Your account has been deleted.');
    expect(toast.success('Your account has been deleted.')).toBe(expiry);
    expect(live().map((t) => t.id)).toEqual([expiry]);
    dismissToast(expiry);
  });
});
