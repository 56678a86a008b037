// The command the user ran, `npm run conformance --` or the installed bin, for the reports' replay lines.
/**
 * The command the user ran, for the replay lines reports print: `npm run conformance --` inside this
 * repository (npm names the script it runs in `npm_lifecycle_event`), else the installed bin.
 */
export function invokedCommand(env: Record<string, string | undefined> = process.env): string {
  return env.npm_lifecycle_event === 'conformance' ? 'npm run conformance --' : 'npx animal-store-conformance'
}
