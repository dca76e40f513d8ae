/**
 * A table's own entry for a caller's key: `constructor` or `toString` must
 * not find Object.prototype's members through a plain object literal.
 */
export const own = <V>(table: Readonly<Record<string, V>>, key: string): V | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;
