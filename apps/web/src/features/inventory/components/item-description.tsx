import { Anchor, Stack, Text } from '@mantine/core';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';

/** Lines of a description shown before "Show more": a sheet on a phone keeps its actions in sight. */
export const DESCRIPTION_LINES = 6;

/**
 * An item's rules text in its sheet: its own paragraphs, clamped to a few lines with Show more when longer
 * (measured, as the width decides), and a link to its template's page when the viewer may open it.
 */
export function ItemDescription({ text, templateId }: { text: string; templateId: string | null }) {
  const id = useId();
  const [expanded, setExpanded] = useState(false);
  const [overflows, setOverflows] = useState(false);
  const box = useRef<HTMLParagraphElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new text (the detail read after the sheet opened) is measured anew, its box drawn only then.
  useLayoutEffect(() => {
    const element = box.current;
    if (!element || expanded) return;
    const measure = () => setOverflows(element.scrollHeight > element.clientHeight + 1);
    measure();
    // A sheet turned or a modal resized clamps at another line.
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [expanded, text]);
  return (
    <Stack gap={4} align="flex-start">
      {text ? (
        <Text
          ref={box}
          id={id}
          size="sm"
          data-testid="item-description"
          data-clamped={!expanded}
          lineClamp={expanded ? undefined : DESCRIPTION_LINES}
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        >
          {text}
        </Text>
      ) : null}
      {text && (overflows || expanded) ? (
        <Anchor
          component="button"
          type="button"
          size="sm"
          aria-expanded={expanded}
          aria-controls={id}
          className="haversack-touch-target"
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? 'Show less' : 'Show more'}
        </Anchor>
      ) : null}
      {templateId ? (
        <Anchor
          component={Link}
          to={`/items/templates/${templateId}`}
          size="sm"
          className="haversack-touch-target"
        >
          View template
        </Anchor>
      ) : null}
    </Stack>
  );
}
