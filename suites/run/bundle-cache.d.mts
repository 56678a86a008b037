// The types of bundle-cache.mjs, which is plain JavaScript so it can run before any TypeScript loader.
/**
 * The path of a current bundle of `entry` (a .ts file of the repository at `root`), built if needed;
 * `bundlePackages` inlines npm packages too; each module in `apart` gets a bundle of its own beside it.
 */
export function cachedBundle(
  entry: string,
  root: string,
  options?: { bundlePackages: boolean; apart?: string[] },
): Promise<string>

/** Where `cachedBundle` keeps the bundle of `entry`, whether it is built yet or not. */
export function bundlePath(entry: string, root: string, options?: { bundlePackages: boolean }): string
