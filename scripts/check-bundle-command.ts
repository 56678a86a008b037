// `animal-store-mock check-bundle DIR...`: the production guard over project roots or build folders.
import { checkBundles, describeFindings, describeTargets } from '../mocks/check-bundle.ts'
import { UsageError } from './cli/usage-error.ts'

/**
 * Searches each folder for the mock as its framework ships it, prints what was recognised and searched,
 * and returns the exit code: 0 clean, 1 when a file ships the mock. A missing folder or an unbuilt
 * project is a usage error (exit 2).
 */
export function checkBundleCommand(dirs: readonly string[]): 0 | 1 {
  if (dirs.length === 0)
    throw new UsageError(
      'check-bundle takes one folder or more: your project\'s root or its build output, e.g. "check-bundle ." or "check-bundle dist".',
    )
  let found: ReturnType<typeof checkBundles>
  try {
    found = checkBundles(dirs)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  console.log(describeTargets(found.targets))
  if (found.findings.length === 0) {
    console.log(`${dirs.join(', ')}: no part of the Animal Store mock in ${found.checked} files.`)
    return 0
  }
  const frameworks = found.targets.map((target) => target.framework)
  console.error(describeFindings(dirs.join(', '), found.findings, frameworks))
  return 1
}
