import { NumberInput, type NumberInputProps } from '@mantine/core';
import { useMergedRef } from '@mantine/hooks';
import { forwardRef, useCallback, useEffect, useRef, useState } from 'react';

/** What a number field says when it refuses a character rather than drop it without a word. */
export const numberFieldMessages = {
  digitsOnly: 'Type the number in digits only (100000, not 1e5)',
  noNegative: 'A negative number cannot be entered here',
  wholeOnly: 'Whole numbers only: a decimal point cannot be entered here',
};

interface Accepts {
  allowNegative?: boolean;
  allowDecimal?: boolean;
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
 * The app's number field: Mantine's NumberInput, except that a character it would drop is refused, and the
 * field says why under it, rather than turning what was typed into
 * another number. Every number field (weights, quantities, prices, coins, limits) is this one.
 */
export const NumberField = forwardRef<HTMLInputElement, NumberInputProps>(function NumberField(props, ref) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const merged = useMergedRef(ref, input);
  const accepts = useRef<Accepts>({});
  accepts.current = { allowNegative: props.allowNegative, allowDecimal: props.allowDecimal };

  // A refusal stays said through the keystrokes after it (after "1e" refused the "e", the "5" makes 15),
  // until something is deleted: the one who typed it reads what became of it.
  const check = useCallback((event: Event, text: string | null) => {
    const refused = text === null ? null : numberFieldRefusal(text, accepts.current);
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
    element.addEventListener('beforeinput', onBeforeInput);
    element.addEventListener('paste', onPaste);
    return () => {
      element.removeEventListener('beforeinput', onBeforeInput);
      element.removeEventListener('paste', onPaste);
    };
  }, [check]);

  return <NumberInput {...props} ref={merged} error={props.error || refusal} />;
});
