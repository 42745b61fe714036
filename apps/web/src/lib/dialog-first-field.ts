/**
 * Props of a dialog's first field, for the dialog to start on it rather than on its close button. As the
 * dialog opens, Mantine's focus trap focuses its `data-autofocus` element; but it looks only then, so a
 * field drawn once something has loaded (my parties, the party's characters) came too late and the close
 * button kept the focus. Such a field takes it as it appears: from that close button (or the page) only,
 * never from where the user moved it meanwhile.
 */
export const dialogFirstField = {
  'data-autofocus': true,
  ref: (field: HTMLElement | null) => {
    const dialog = field?.closest('[role="dialog"]');
    if (!field || !dialog) return;
    const active = document.activeElement;
    const onCloseButton =
      active instanceof Element && dialog.contains(active) && active.matches('.mantine-Modal-close');
    if (!active || active === document.body || active === dialog || onCloseButton) field.focus();
  },
} as const;
