import { Anchor } from '@mantine/core';
import {
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  useId,
  useLayoutEffect,
  useState,
} from 'react';

/** Kept from the row around it: the toggle is no drag handle, and its Enter or Space starts no drag. */
function keepToItself(event: PointerEvent | KeyboardEvent) {
  event.stopPropagation();
}

/**
 * A name clamped to `lines` lines that can still be read whole: "Show full name" under it when it is cut
 * (measured, as the width decides), and the full text as its tooltip while cut. The text stays whole in
 * the page, so a screen reader reads all of it. Spread `textProps` on the Text or Title that shows it.
 */
export function useLineClamp(text: string, lines: number, label = 'Show full name') {
  const id = useId();
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [expanded, setExpanded] = useState(false);
  const [overflows, setOverflows] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new text is measured anew.
  useLayoutEffect(() => {
    if (!element || expanded) return;
    const measure = () => setOverflows(element.scrollHeight > element.clientHeight + 1);
    measure();
    // A turned phone or a wider column clamps at another line, or not at all.
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, expanded, text]);
  const clamped = overflows && !expanded;
  const toggle: ReactNode =
    overflows || expanded ? (
      <Anchor
        component="button"
        type="button"
        // A finger's size on a phone, not the caption's.
        size="sm"
        py={2}
        aria-expanded={expanded}
        aria-controls={id}
        onClick={() => setExpanded(!expanded)}
        onPointerDown={keepToItself}
        onKeyDown={keepToItself}
        style={{ alignSelf: 'flex-start' }}
      >
        {expanded ? 'Show less' : label}
      </Anchor>
    ) : null;
  return {
    textProps: {
      ref: setElement,
      id,
      lineClamp: expanded ? undefined : lines,
      title: clamped ? text : undefined,
      'data-clamped': !expanded,
      style: { overflowWrap: 'anywhere' as const },
    },
    toggle,
  };
}
