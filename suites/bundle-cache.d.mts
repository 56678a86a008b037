/**
 * The path of a current bundle of `entry` (a .ts file of the repository at `root`), built if needed;
 * `bundlePackages` inlines npm packages too.
 */
export function cachedBundle(
  entry: string,
  root: string,
  options?: { bundlePackages: boolean },
): Promise<string>
