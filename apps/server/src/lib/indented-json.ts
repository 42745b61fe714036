import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Writing a big JSON document as it is made, for a download that starts at once (the data export): the
 * text is exactly `JSON.stringify(document, null, 2)`, but the members and items marked `streamedObject` /
 * `streamedArray` are written one at a time, as they are read, so the whole document never sits in one
 * string and the event loop answers other requests between pieces.
 */
const streamed = Symbol('streamed');

interface StreamedArray {
  readonly [streamed]: 'array';
  readonly items: AsyncIterable<unknown> | Iterable<unknown>;
}

interface StreamedObject {
  readonly [streamed]: 'object';
  readonly members: Readonly<Record<string, unknown>>;
}

/** An array written item by item as `items` yields them (a generator: each is made only when written). */
export function streamedArray(items: AsyncIterable<unknown> | Iterable<unknown>): StreamedArray {
  return { [streamed]: 'array', items };
}

/**
 * An object written member by member, in its keys' order. A member may itself be streamed, or a function,
 * called only when its turn comes (the reads behind it start after what comes before is written).
 */
export function streamedObject(members: Record<string, unknown>): StreamedObject {
  return { [streamed]: 'object', members };
}

function isStreamed(value: unknown): value is StreamedArray | StreamedObject {
  return typeof value === 'object' && value !== null && streamed in value;
}

/** Text at least this long is handed on at once, then the event loop gets a turn. */
const CHUNK_CHARS = 64 * 1024;

export async function* indentedJson(document: unknown): AsyncGenerator<string> {
  let buffer = '';
  let started = false;
  for await (const piece of pieces(document, '')) {
    buffer += piece;
    // The first piece goes at once: with it go the headers, before anything is read.
    if (!started || buffer.length >= CHUNK_CHARS) {
      started = true;
      yield buffer;
      buffer = '';
      // Other requests are answered between pieces; the rest of the document waits its turn.
      await nextTurn();
    }
  }
  if (buffer) yield buffer;
}

async function* pieces(value: unknown, indent: string): AsyncGenerator<string> {
  const inner = `${indent}  `;
  if (!isStreamed(value)) {
    // As JSON.stringify nests it: every line of a value below the top is indented by its depth (a string
    // holds no raw line break, so every "\n" is between two lines of the layout).
    yield (JSON.stringify(value, null, 2) ?? 'null').replaceAll('\n', `\n${indent}`);
    return;
  }
  let first = true;
  if (value[streamed] === 'array') {
    for await (const item of value.items) {
      yield `${first ? '[' : ','}\n${inner}`;
      first = false;
      // As JSON.stringify writes a missing item in an array.
      yield* pieces(item === undefined ? null : item, inner);
    }
    yield first ? '[]' : `\n${indent}]`;
    return;
  }
  for (const [key, member] of Object.entries(value.members)) {
    const resolved = typeof member === 'function' ? await member() : member;
    // As JSON.stringify leaves out an undefined member.
    if (resolved === undefined) continue;
    yield `${first ? '{' : ','}\n${inner}${JSON.stringify(key)}: `;
    first = false;
    yield* pieces(resolved, inner);
  }
  yield first ? '{}' : `\n${indent}}`;
}
