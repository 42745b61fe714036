import { NumberInput, type NumberInputProps } from '@mantine/core';
import { useMediaQuery, useMergedRef } from '@mantine/hooks';
import { forwardRef, useCallback, useEffect, useRef, useState } from 'react';

/** What a number field says when it refuses a character rather than drop it without a word. */
export const numberFieldMessages = {
  digitsOnly: 'Type the number in digits only (100000, not 1e5)',
  noNegative: 'A negative number cannot be entered here',
  wholeOnly: 'Whole numbers only: a decimal point cannot be entered here',
  /** "1.000" typed where prices have cents: the third 0 was dropped and one thousand became 1 (locales M1). */
  tooManyDecimals: (places: number) =>
    `${numberFieldMessages.decimalsLimit(places)} (for one thousand, type 1000, not 1.000)`,
  /** "1.2345" typed in a weight kept to the thousandth: the 5 was dropped and 1.23 saved (author review, H1). */
  decimalsLimit: (places: number) => `At most ${places} decimal ${places === 1 ? 'place' : 'places'} here`,
  /** How a decimal field read "1.000": as one, never as the thousand a German or French user means by it. */
  pointReadAsDecimal: (text: string) => {
    const digits = text.replace('.', '');
    return `${text} is read as ${Number(text)}: the point marks decimals. For ${digits}, type ${digits}.`;
  },
};

interface Accepts {
  allowNegative?: boolean;
  allowDecimal?: boolean;
  decimalScale?: number;
  /** The field's decimals where Mantine's decimalScale is not set (see NumberFieldProps.maxDecimals). */
  maxDecimals?: number;
  /** The field groups thousands with ",": a comma there is a group, never a decimal point. */
  groupsWithComma?: boolean;
}

/**
 * Why a field would refuse text typed or pasted into it, or null when it takes the text as it is. Mantine's
 * number field drops every character it cannot hold: "1e5" became 15 and "-3", where negatives are not
 * allowed, became 3, with nothing said (content review, finding 4). Spaces and group separators change no
 * number, so they pass.
 */
export function numberFieldRefusal(text: string, accepts: Accepts): string | null {
  if (/[^\d.,\s-]/.test(text)) return numberFieldMessages.digitsOnly;
  if (text.includes('-') && accepts.allowNegative === false) return numberFieldMessages.noNegative;
  if (text.includes('.') && accepts.allowDecimal === false) return numberFieldMessages.wholeOnly;
  return null;
}

/**
 * Why the field would refuse to become `next` (its text with the typing or paste in it), or null: a digit
 * past the decimals the field keeps. Mantine drops it without a word, so "1.000" typed in a gp price, one
 * thousand to a German user, stayed "1.00", 1 gp (locales review, M1), and a weight kept to the thousandth
 * took "1.2345" as 1.234 (author review, H1). A thousand-looking text is told how to write a thousand.
 */
export function numberFieldDecimalsRefusal(next: string, accepts: Accepts) {
  const places = accepts.decimalScale ?? accepts.maxDecimals;
  if (accepts.allowDecimal === false || places === undefined) return null;
  if (decimalPlaces(next, accepts) <= places) return null;
  return looksLikeThousands(next)
    ? numberFieldMessages.tooManyDecimals(places)
    : numberFieldMessages.decimalsLimit(places);
}

/**
 * How many digits follow the decimal point in a field's text. Mantine takes "," as the decimal point too
 * ("2,5" is 2.5), except where the field groups thousands with it.
 */
function decimalPlaces(text: string, accepts: Accepts): number {
  const compact = text.replace(/\s/g, '');
  const point = accepts.groupsWithComma
    ? compact.lastIndexOf('.')
    : Math.max(compact.lastIndexOf('.'), compact.lastIndexOf(','));
  return point === -1 ? 0 : compact.slice(point + 1).replace(/\D/g, '').length;
}

/** "1.000", "12.500", "-250.000": a point, then exactly three digits, after a group that is not 0. */
function looksLikeThousands(text: string): boolean {
  return /^-?[1-9]\d{0,2}\.\d{3}$/.test(text.trim());
}

/**
 * A note on how a decimal field read what it holds, or null. "1.000" or "12.500" (a point, then exactly
 * three digits) is one thousand to a German or French user and one to an English one: the field takes the
 * point as a decimal point, as it takes "2,5" as 2.5, and says so rather than keep the reading to itself.
 * A whole-number field ("." refused) and one that groups thousands with "," (where a point can only be a
 * decimal point in a whole number, which its form refuses) need no note.
 */
export function numberFieldReading(text: string, accepts: Accepts) {
  if (accepts.allowDecimal === false || accepts.groupsWithComma) return null;
  return looksLikeThousands(text) ? numberFieldMessages.pointReadAsDecimal(text.trim()) : null;
}

export interface NumberFieldProps extends NumberInputProps {
  /**
   * The decimals the field keeps, refused past (typed or pasted) with a message, without Mantine's
   * decimalScale: that one also rounds what the field is given to show, and a weight saved with four
   * decimals before the rule would read as another weight (docs/decisions.md, item weights).
   */
  maxDecimals?: number;
}

/**
 * The app's number field: Mantine's NumberInput, except that a character it would drop is refused, and the
 * field says why under it, rather than turning what was typed into
 * another number. Every number field (weights, quantities, prices, coins, limits) is this one.
 */
export const NumberField = forwardRef<HTMLInputElement, NumberFieldProps>(function NumberField(
  { maxDecimals, onChange, ...props },
  ref,
) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const [reading, setReading] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const merged = useMergedRef(ref, input);
  const accepts = useRef<Accepts>({});
  accepts.current = {
    allowNegative: props.allowNegative,
    allowDecimal: props.allowDecimal,
    decimalScale: props.decimalScale,
    maxDecimals,
    groupsWithComma: props.thousandSeparator === ',' || props.thousandSeparator === true,
  };

  // A refusal stays said through the keystrokes after it (after "1e" refused the "e", the "5" makes 15),
  // until something is deleted: the one who typed it reads what became of it.
  const check = useCallback((event: Event, text: string | null) => {
    const element = event.target as HTMLInputElement;
    const next =
      text === null
        ? ''
        : element.value.slice(0, element.selectionStart ?? element.value.length) +
          text +
          element.value.slice(element.selectionEnd ?? element.value.length);
    const refused =
      text === null
        ? null
        : (numberFieldRefusal(text, accepts.current) ?? numberFieldDecimalsRefusal(next, accepts.current));
    if (refused) {
      event.preventDefault();
      setRefusal(refused);
    } else if (element.selectionStart !== element.selectionEnd) {
      // Typed or pasted over a selection: what was refused is deleted with it (a new number pasted whole).
      setRefusal(null);
    }
  }, []);

  useEffect(() => {
    const element = input.current;
    if (!element) return;
    // Native events: React's onBeforeInput is built from keypress, which phones' keyboards do not send.
    // Nothing here may set state as the text changes (the input event): in a browser React renders between
    // this listener and its own, with the value it had, and the field went back to it (1.234 became 1.23,
    // a paste became 0: author review, H1). A refusal comes before the change, and stops it.
    const onBeforeInput = (event: Event) => {
      const { inputType, data } = event as InputEvent;
      if (inputType.startsWith('delete')) setRefusal(null);
      // A paste's text is read in the paste event (its beforeinput may carry none).
      else if (inputType !== 'insertFromPaste') check(event, data);
    };
    const onPaste = (event: ClipboardEvent) => check(event, event.clipboardData?.getData('text') ?? null);
    element.addEventListener('beforeinput', onBeforeInput);
    element.addEventListener('paste', onPaste);
    return () => {
      element.removeEventListener('beforeinput', onBeforeInput);
      element.removeEventListener('paste', onPaste);
    };
  }, [check]);

  // The reading follows the text as the field keeps it, in the same render as the value it goes with.
  const change = (value: number | string) => {
    setReading(input.current ? numberFieldReading(input.current.value, accepts.current) : null);
    onChange?.(value);
  };

  const description = reading
    ? typeof props.description === 'string' && props.description !== ''
      ? `${props.description}. ${reading}`
      : reading
    : props.description;
  // On a touch screen the up and down arrows are 24 x 17 px, too small for a finger (first-hour review), and
  // the keyboard that opens there types the number: they go, as they do on the shop stock page. Set
  // `hideControls` to decide otherwise.
  const touch = useMediaQuery('(pointer: coarse)') === true;
  return (
    <NumberInput
      {...props}
      hideControls={props.hideControls ?? touch}
      onChange={change}
      ref={merged}
      description={description}
      error={props.error || refusal}
    />
  );
});
