import { afterEach, describe, expect, it } from 'vitest';
import { keepFocusThroughBusyButtons } from './keep-focus-through-busy-buttons';

let stop = () => {};
afterEach(() => {
  stop();
  document.body.innerHTML = '';
});

/** A tick for the mutation observer to run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function page() {
  document.body.innerHTML = '<input id="field"><button id="save" type="button">Save</button>';
  const button = document.getElementById('save') as HTMLButtonElement;
  const field = document.getElementById('field') as HTMLInputElement;
  stop = keepFocusThroughBusyButtons();
  return { button, field };
}

/**
 * What a browser does to a focused button that becomes disabled: the focus falls to the page (happy-dom
 * keeps it on the disabled button, and will not blur one, so the focus goes first).
 */
async function busy(button: HTMLButtonElement) {
  button.blur();
  button.disabled = true;
  await settle();
}

describe('keepFocusThroughBusyButtons', () => {
  it('gives the focus back to a button that was busy once it can be pressed again', async () => {
    const { button } = page();
    button.focus();
    await busy(button);
    expect(document.activeElement).toBe(document.body);
    button.disabled = false;
    await settle();
    expect(document.activeElement).toBe(button);
  });

  it('leaves the focus where something else put it meanwhile', async () => {
    const { button, field } = page();
    button.focus();
    await busy(button);
    field.focus();
    button.disabled = false;
    await settle();
    expect(document.activeElement).toBe(field);
  });

  it('does not focus a button that was disabled without having the focus', async () => {
    const { button, field } = page();
    field.focus();
    field.blur();
    await busy(button);
    button.disabled = false;
    await settle();
    expect(document.activeElement).toBe(document.body);
  });
});
