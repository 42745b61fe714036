import { create } from 'zustand';

export type ModalProps = Record<string, unknown>;

interface ModalEntry {
  open: boolean;
  props: ModalProps;
}

interface ModalState {
  modals: Record<string, ModalEntry>;
  openModal: (id: string, props?: ModalProps) => void;
  closeModal: (id: string) => void;
  closeAll: () => void;
}

/** spec/01 §2: the modal system keeps open/closed state and properties per modal id. */
export const useModalStore = create<ModalState>()((set) => ({
  modals: {},
  openModal: (id, props = {}) =>
    set((state) => ({ modals: { ...state.modals, [id]: { open: true, props } } })),
  closeModal: (id) =>
    set((state) => {
      const entry = state.modals[id];
      if (!entry) return state;
      return { modals: { ...state.modals, [id]: { ...entry, open: false } } };
    }),
  closeAll: () =>
    set((state) => ({
      modals: Object.fromEntries(
        Object.entries(state.modals).map(([id, entry]) => [id, { ...entry, open: false }]),
      ),
    })),
}));

/** Read one modal's state: `const { open, props } = useModal('confirm-delete')`. */
export function useModal(id: string): ModalEntry {
  return useModalStore((state) => state.modals[id] ?? closedModal);
}

const closedModal: ModalEntry = { open: false, props: {} };
