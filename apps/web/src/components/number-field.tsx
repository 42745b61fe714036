import { NumberInput, type NumberInputProps } from '@mantine/core';
import { useMergedRef } from '@mantine/hooks';
import { forwardRef, useCallback, useEffect, useRef, useState } from 'react';

/** What a number field says when it refuses a character rather than drop it without a word. */
export const numberFieldMessages = {
  digitsOnly: 'Type the number in digits only (100000, not 1e5)',
  noNegative: 'A negative number cannot be entered here',
  wholeOnly: 'Whole numbers only: a decimal point cannot be entered here',
  /** "1.000" typed where prices have cents: the third 0 was dropped and one thousand became 1 (locales M1). */
  tooManyDecimals: (places: number) =>
    `At most ${places} decimal ${places === 1 ? 'place' : 'places'} here (for one thousand, type 1000, not 1.000)`,
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
 * Why the field would refuse to become `next` (its text with the typing or paste in it), or null: a
 * thousand written with a point ("1.000", "12.500") where the field keeps fewer decimals. Mantine drops
 * the digit past `decimalScale` without a word, so "1.000" typed in a gp price, one thousand to a German
 * user, stayed "1.00", 1 gp (locales review, M1). A finer fraction ("0.001") still just stops at the
 * field's decimals, as it did: nobody writes a thousand that way.
 */
export function numberFieldDecimalsRefusal(next: string, accepts: Accepts) {
  if (accepts.allowDecimal === false || accepts.decimalScale === undefined || accepts.decimalScale >= 3)
    return null;
  return looksLikeThousands(next) ? numberFieldMessages.tooManyDecimals(accepts.decimalScale) : null;
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
export function numberFieldReading(text: string, accepts: Accepts & { groupsWithComma?: boolean }) {
  if (accepts.allowDecimal === false || accepts.groupsWithComma) return null;
  return looksLikeThousands(text) ? numberFieldMessages.pointReadAsDecimal(text.trim()) : null;
}

/**
 * The app's number field: Mantine's NumberInput, except that a character it would drop is refused, and the
 * field says why under it, rather than turning what was typed into
 * another number. Every number field (weights, quantities, prices, coins, limits) is this one.
 */
export const NumberField = forwardRef<HTMLInputElement, NumberInputProps>(function NumberField(props, ref) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const [reading, setReading] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const merged = useMergedRef(ref, input);
  const accepts = useRef<Accepts & { groupsWithComma?: boolean }>({});
  accepts.current = {
    allowNegative: props.allowNegative,
    allowDecimal: props.allowDecimal,
    decimalScale: props.decimalScale,
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
    if (!refused) return;
    event.preventDefault();
    setRefusal(refused);
  }, []);

  useEffect(() => {
    const element = input.current;
    if (!element) return;
    // Native events: React's onBeforeInput is built from keypress, which phones' keyboards do not send.
    const onBeforeInput = (event: Event) => {
      const { inputType, data } = event as InputEvent;
      if (inputType.startsWith('delete')) setRefusal(null);
      // A paste's text is read in the paste event (its beforeinput may carry none).
      else if (inputType !== 'insertFromPaste') check(event, data);
    };
    const onPaste = (event: ClipboardEvent) => check(event, event.clipboardData?.getData('text') ?? null);
    const onInput = () => setReading(numberFieldReading(element.value, accepts.current));
    element.addEventListener('beforeinput', onBeforeInput);
    element.addEventListener('paste', onPaste);
    element.addEventListener('input', onInput);
    return () => {
      element.removeEventListener('beforeinput', onBeforeInput);
      element.removeEventListener('paste', onPaste);
      element.removeEventListener('input', onInput);
    };
  }, [check]);

  const description = reading
    ? typeof props.description === 'string' && props.description !== ''
      ? `${props.description}. ${reading}`
      : reading
    : props.description;
  return <NumberInput {...props} ref={merged} description={description} error={props.error || refusal} />;
});
