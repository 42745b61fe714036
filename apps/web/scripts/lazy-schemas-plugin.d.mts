import type { Plugin } from 'vite';

/** The top-level declarators to wrap in a contracts module, as [start, end] of their values. */
export function lazySchemaRanges(code: string): [number, number][];
/** `code` with each of those values built on first use, `lazySchema` imported from `helper`; null if none. */
export function makeSchemasLazy(code: string, helper: string): string | null;
export function lazySchemasPlugin(): Plugin;
