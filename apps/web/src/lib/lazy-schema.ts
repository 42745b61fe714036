/**
 * A value built on first use and then stood in for by a proxy: the contracts' zod schemas in the web build
 * (scripts/lazy-schemas-plugin.mjs). Building every schema of the contracts as their modules load cost a
 * phone about half a second of blocked main thread on the inventory page, for schemas most of which the
 * page never uses (issue 13 §1). Everything a caller does with the proxy (read, call, `in`, `instanceof`,
 * keys) happens on the built value.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const value = (): T => {
    built ??= build();
    return built;
  };
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(value(), key),
    set: (_, key, next) => Reflect.set(value(), key, next),
    has: (_, key) => Reflect.has(value(), key),
    ownKeys: () => Reflect.ownKeys(value()),
    // The proxy's own target holds nothing: a property it reports must be configurable (Proxy invariants).
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(value(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(value(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(value(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(value()),
  });
}
