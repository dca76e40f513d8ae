/**
 * A CommonJS package's exports, from its `import()`: the namespace's `default`, which is `module.exports`.
 * Node also offers the names its lexer finds as named exports, but not for every package (the Pulumi stubs),
 * and the npm package's bundles, split into chunks, offer only `default`. So a CommonJS package imported
 * lazily is read through this.
 */
export async function commonJsExports<T>(module: Promise<unknown>): Promise<T> {
  return ((await module) as { default: T }).default;
}
