/** The path of a current bundle of `entry` (a .ts file of the repository at `root`), built if needed. */
export function cachedBundle(entry: string, root: string): Promise<string>
