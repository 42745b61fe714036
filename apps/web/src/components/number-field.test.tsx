import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../test/render';
import { NumberField, numberFieldMessages, numberFieldRefusal } from './number-field';

function Field(props: {
  allowDecimal?: boolean;
  allowNegative?: boolean;
  error?: string;
  decimalScale?: number;
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
