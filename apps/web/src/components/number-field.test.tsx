import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../test/render';
import { stubMediaQueries } from '../test/viewport';
import {
  NumberField,
  numberFieldDecimalsRefusal,
  numberFieldMessages,
  numberFieldRefusal,
} from './number-field';

function Field(props: {
  allowDecimal?: boolean;
  allowNegative?: boolean;
  error?: string;
  decimalScale?: number;
  maxDecimals?: number;
}) {
  const [value, setValue] = useState<number | string>('');
  return <NumberField label="Coins" value={value} onChange={setValue} {...props} />;
}

// Content review, finding 4: Mantine's field dropped what it could not hold, "1e5" became 15 and "-3" 3.
describe('numberFieldRefusal', () => {
  it('names what the field would drop, and lets digits, spaces and group separators through', () => {
    expect(numberFieldRefusal('e', {})).toBe(numberFieldMessages.digitsOnly);
    expect(numberFieldRefusal('1e5', { allowNegative: false })).toBe(numberFieldMessages.digitsOnly);
    expect(numberFieldRefusal('$5', {})).toBe(numberFieldMessages.digitsOnly);
    expect(numberFieldRefusal('-', { allowNegative: false })).toBe(numberFieldMessages.noNegative);
    expect(numberFieldRefusal('.', { allowDecimal: false })).toBe(numberFieldMessages.wholeOnly);
    expect(numberFieldRefusal('-', {})).toBeNull();
    expect(numberFieldRefusal('1.5', {})).toBeNull();
    expect(numberFieldRefusal(' 1,250 ', { allowDecimal: false, allowNegative: false })).toBeNull();
  });
});

describe('NumberField', () => {
  it('refuses a decimal point in a whole-number field, typed or pasted, and says so until a deletion', async () => {
    renderRoutes([{ path: '/', element: <Field allowDecimal={false} allowNegative={false} /> }], '/');
    const user = userEvent.setup({ delay: null });
    const field = screen.getByRole('textbox', { name: 'Coins' });
    await user.type(field, '1.5');
    expect(field).toHaveAccessibleDescription(numberFieldMessages.wholeOnly);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    // The point was refused, not dropped from a number the user then sees as theirs without a word.
    expect(field).toHaveValue('15');
    await user.clear(field);
    expect(field).not.toHaveAccessibleDescription(numberFieldMessages.wholeOnly);
    await user.paste('2.5');
    expect(field).toHaveValue('');
    expect(field).toHaveAccessibleDescription(numberFieldMessages.wholeOnly);
  });

  it('leaves the form’s own error first', async () => {
    renderRoutes(
      [{ path: '/', element: <Field allowNegative={false} error="Quantity must be at least 1" /> }],
      '/',
    );
    const user = userEvent.setup({ delay: null });
    const field = screen.getByRole('textbox', { name: 'Coins' });
    await user.type(field, '-');
    expect(field).toHaveAccessibleDescription('Quantity must be at least 1');
  });

  it('drops its up and down arrows on a touch screen, too small for a finger, and keeps them for a mouse', () => {
    const arrows = () => document.querySelectorAll('.mantine-NumberInput-control');
    const { unmount } = renderRoutes([{ path: '/', element: <Field /> }], '/');
    expect(arrows()).toHaveLength(2);
    unmount();
    stubMediaQueries((query) => query.includes('pointer: coarse'));
    try {
      renderRoutes([{ path: '/', element: <Field /> }], '/');
      expect(screen.getByRole('textbox', { name: 'Coins' })).toBeInTheDocument();
      expect(arrows()).toHaveLength(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

// Locales review, M1: "1.000" (one thousand, to a German user) in a gp price became 1.00 without a word.
describe('NumberField: a point and three digits', () => {
  it('refuses a decimal past the ones the field keeps, saying so, rather than dropping it', async () => {
    renderRoutes([{ path: '/', element: <Field decimalScale={2} allowNegative={false} /> }], '/');
    const user = userEvent.setup({ delay: null });
    const field = screen.getByRole('textbox', { name: 'Coins' });
    await user.type(field, '1.000');
    expect(field).toHaveAccessibleDescription(numberFieldMessages.tooManyDecimals(2));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    await user.clear(field);
    await user.paste('1.000');
    expect(field).toHaveValue('');
    expect(field).toHaveAccessibleDescription(numberFieldMessages.tooManyDecimals(2));
    await user.clear(field);
    await user.type(field, '2,55');
    expect(field).toHaveValue('2.55');
    expect(field).not.toHaveAttribute('aria-invalid', 'true');
  });
});

// Author review, H1: a weight field (three decimals) turned 1.2345 into 1.23 and a finer fraction stopped at
// the field's decimals without a word. The digit past the field's decimals is refused, saying so.
describe('NumberField: the digit past the field’s decimals', () => {
  it('is refused with the field’s decimals named, a thousand-looking text with the hint', () => {
    expect(numberFieldDecimalsRefusal('1.2345', { maxDecimals: 3 })).toBe(
      numberFieldMessages.decimalsLimit(3),
    );
    expect(numberFieldDecimalsRefusal('1.234', { maxDecimals: 3 })).toBeNull();
    expect(numberFieldDecimalsRefusal('0.001', { decimalScale: 2 })).toBe(
      numberFieldMessages.decimalsLimit(2),
    );
    expect(numberFieldDecimalsRefusal('2,555', { decimalScale: 2 })).toBe(
      numberFieldMessages.decimalsLimit(2),
    );
    expect(numberFieldDecimalsRefusal('1.000', { decimalScale: 2 })).toBe(
      numberFieldMessages.tooManyDecimals(2),
    );
    expect(numberFieldDecimalsRefusal('1.00001', { decimalScale: 4 })).toBe(
      numberFieldMessages.decimalsLimit(4),
    );
    // A field grouping thousands with "," reads a comma as a group, not as a decimal point.
    expect(numberFieldDecimalsRefusal('1,250', { decimalScale: 2, groupsWithComma: true })).toBeNull();
    expect(numberFieldDecimalsRefusal('1250', { decimalScale: 0 })).toBeNull();
    expect(numberFieldDecimalsRefusal('0.12345678', {})).toBeNull();
  });

  it('keeps 1.234 in a three-decimal field, refuses the fourth digit typed or pasted, and says so', async () => {
    renderRoutes([{ path: '/', element: <Field maxDecimals={3} allowNegative={false} /> }], '/');
    const user = userEvent.setup({ delay: null });
    const field = screen.getByRole('textbox', { name: 'Coins' });
    await user.type(field, '1.2345');
    expect(field).toHaveValue('1.234');
    expect(field).toHaveAccessibleDescription(expect.stringContaining(numberFieldMessages.decimalsLimit(3)));
    // The note on how the point was read is about the text kept, and true of it.
    expect(field).toHaveAccessibleDescription(
      expect.stringContaining(numberFieldMessages.pointReadAsDecimal('1.234')),
    );
    // A paste over the whole text replaces what was refused, and the refusal with it.
    (field as HTMLInputElement).setSelectionRange(0, 5);
    await user.paste('2.5');
    expect(field).toHaveValue('2.5');
    expect(field).not.toHaveAttribute('aria-invalid', 'true');
    await user.clear(field);
    await user.paste('12.7505');
    expect(field).toHaveValue('');
    expect(field).toHaveAccessibleDescription(numberFieldMessages.decimalsLimit(3));
    await user.clear(field);
    await user.paste('12.750');
    expect(field).toHaveValue('12.750');
    expect(field).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('refuses a third decimal in a two-decimal field rather than dropping it', async () => {
    renderRoutes([{ path: '/', element: <Field decimalScale={2} allowNegative={false} /> }], '/');
    const user = userEvent.setup({ delay: null });
    const field = screen.getByRole('textbox', { name: 'Coins' });
    await user.type(field, '0.125');
    expect(field).toHaveValue('0.12');
    expect(field).toHaveAccessibleDescription(numberFieldMessages.decimalsLimit(2));
  });
});
