import { Anchor } from '@mantine/core';
import { Fragment } from 'react';

/** An http(s) address up to a space, a quote or an angle bracket (none of which an address holds bare). */
const addressPattern = /https?:\/\/[^\s<>"'`]+/gi;
/** Punctuation that ends the sentence around an address rather than the address itself. */
const trailingPunctuation = /[.,;:!?)\]}]+$/;

export interface TextPart {
  text: string;
  /** Set on an http(s) address: where its link goes. */
  href?: string;
}

function linkable(candidate: string): boolean {
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** `text` cut into plain parts and http(s) addresses, in order; joined again they are `text`. */
export function splitOnLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let plain = 0;
  for (const match of text.matchAll(addressPattern)) {
    const address = match[0].replace(trailingPunctuation, '');
    if (!linkable(address)) continue;
    if (match.index > plain) parts.push({ text: text.slice(plain, match.index) });
    parts.push({ text: address, href: address });
    plain = match.index + address.length;
  }
  if (plain < text.length) parts.push({ text: text.slice(plain) });
  return parts;
}

/**
 * Text someone else wrote (a report's excerpt, an announcement), its http(s) addresses made links that open
 * apart and pass on no referrer or endorsement. Text stays text: React escapes each part, no HTML is read.
 */
export function LinkedText({ children }: { children: string }) {
  return splitOnLinks(children).map((part, index) =>
    part.href ? (
      <Anchor
        // The parts never reorder: their place is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        key={index}
        href={part.href}
        target="_blank"
        rel="noopener noreferrer nofollow"
        inherit
        style={{ overflowWrap: 'anywhere' }}
      >
        {part.text}
      </Anchor>
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts never reorder
      <Fragment key={index}>{part.text}</Fragment>
    ),
  );
}
