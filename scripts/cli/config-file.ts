// Reads a command's JSON or YAML config file; apart so that only commands taking one ever load it.
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { UsageError } from './usage-error.ts'

/** A config file's values by option name, as written (numbers, booleans, strings, lists, env references). */
export interface ConfigFile {
  /** The path as a person gave or would recognise it. */
  path: string
  values: Readonly<Record<string, unknown>>
}

/**
 * Reads the config file: the one named, else the first of `defaultNames` found in `cwd`, else none.
 * JSON by default; `.yaml`/`.yml` through the `yaml` package, an optional peer: the mock's users never
 * need it, and a pipeline that writes its config in YAML installs it beside vitest.
 * @throws UsageError when the file named does not exist or does not parse, or is not an object.
 */
export async function readConfigFile(
  named: string | undefined,
  defaultNames: readonly string[],
  cwd = process.cwd(),
): Promise<ConfigFile | undefined> {
  const path = named ?? defaultNames.find((name) => existsSync(resolve(cwd, name)))
  if (path === undefined) return undefined
  let text: string
  try {
    text = readFileSync(resolve(cwd, path), 'utf8')
  } catch (error) {
    throw new UsageError(
      `cannot read the config file ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}. Check --config.`,
    )
  }
  let parsed: unknown
  try {
    parsed = /\.ya?ml$/i.test(path) ? (await loadYaml(path)).parse(text) : JSON.parse(text)
  } catch (error) {
    if (error instanceof UsageError) throw error
    throw new UsageError(`the config file ${path} does not parse: ${(error as Error).message.split('\n')[0]}`)
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError(`the config file ${path} must hold an object of option names and values.`)
  return { path, values: parsed as Record<string, unknown> }
}

async function loadYaml(path: string): Promise<{ parse(text: string): unknown }> {
  try {
    return await import('yaml')
  } catch {
    throw new UsageError(
      `the config file ${path} is YAML, which needs the yaml package: install it beside this kit (npm install --save-dev yaml@^2.9), or write the same keys in animal-store.config.json.`,
    )
  }
}
