// The option parser every command shares: one table per command gives its parsing, --help and docs table.
import { type ParseArgsConfig, parseArgs } from 'node:util'
import type { ConfigFile } from './config-file.ts'
import type { Kind } from './option-kinds.ts'
import { UsageError } from './usage-error.ts'

/** One option of a command, declared once: the parser, `--help` and the docs' option tables read it. */
interface OptionSpec<T = unknown> {
  kind: Kind<T>
  /** What it does, for `--help` and the docs; `\n` starts a new help line. */
  help: string
  /** Taken when the option is not given (a list option: an array). */
  default?: T | readonly T[]
  /** How help shows the default, when `kind.show(default)` would not say it well. */
  defaultText?: string
  /** Read from this environment variable when the option is not given on the command line. */
  env?: string
  /** The option may be given more than once; its value is the list of them. */
  multiple?: true
  /** A credential: never written in a config file (an environment variable names it there). */
  secret?: true
  /** Why a value may not be written in a config file (a URL with credentials), or undefined. */
  refuseInFile?: (raw: string) => string | undefined
}

export interface CommandSpec {
  /** The installed command's name, or `npm run …` for a repository-only one. */
  name: string
  /** Usage lines after `Usage: `; the first says `[options]`. */
  usage: readonly string[]
  /** What the command does, a short paragraph. */
  summary: string
  options: Readonly<Record<string, OptionSpec<never> | OptionSpec<unknown>>>
  /** Words that are not options (`worker <dir>`) are allowed. */
  positionals?: true
  /** Help's last paragraph: exit codes, examples. */
  footer?: string
  /** The command reads a config file: `--config PATH`, else the first of these found in the working directory. */
  configFile?: readonly string[]
}

type ValueOf<O> = O extends { multiple: true; kind: Kind<infer T> }
  ? T[]
  : O extends { kind: Kind<infer T>; default: unknown }
    ? T
    : O extends { kind: { flag: true } }
      ? boolean
      : O extends { kind: Kind<infer T> }
        ? T | undefined
        : never

/** The values of a command's options, typed from its table. */
type OptionValues<C extends CommandSpec> = {
  -readonly [K in keyof C['options']]: ValueOf<C['options'][K]>
}

/** Where a value came from: said in usage errors so a person knows what to change. */
type ValueSource = 'command line' | 'environment' | 'config file' | 'default'

/** Declares a command's table, keeping its literal types for `parseCommand`. */
export function defineCommand<const C extends CommandSpec>(command: C): C {
  return command
}

/**
 * Reads a command's arguments (and the environment variables its table names) into typed, validated
 * values. The only caller of `parseArgs` in the project: every command validates the same way.
 * @throws UsageError naming the option and what it accepts.
 * @example parseCommand(startMockCommand, ['--port', '0']).values.port // 0
 */
export function parseCommand<C extends CommandSpec>(
  command: C,
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  file?: ConfigFile,
): Parsed<C> {
  const config: NonNullable<ParseArgsConfig['options']> = { help: { type: 'boolean' } }
  if (command.configFile) config.config = { type: 'string' }
  for (const [name, option] of Object.entries(command.options))
    config[name] = {
      type: option.kind.flag ? 'boolean' : 'string',
      ...(option.multiple ? { multiple: true } : {}),
    }
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({
      args: [...argv],
      options: config,
      strict: true,
      allowPositionals: command.positionals === true,
    })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const values: Record<string, unknown> = { help: parsed.values.help === true }
  if (command.configFile) values.config = parsed.values.config
  const sources: Record<string, ValueSource> = {}
  const { raw: fromFile, fromEnvironment } = file
    ? fileValues(command, file, env)
    : { raw: {}, fromEnvironment: {} }
  for (const [name, option] of Object.entries(command.options)) {
    const given = parsed.values[name]
    const fromEnv = option.env === undefined ? undefined : env[option.env]
    const inFile = fromFile[name]
    if (given !== undefined) {
      sources[name] = 'command line'
      values[name] = option.kind.flag
        ? given
        : Array.isArray(given)
          ? given.map((raw) => readValue(name, option, String(raw), 'command line'))
          : readValue(name, option, String(given), 'command line')
    } else if (fromEnv !== undefined && fromEnv !== '') {
      sources[name] = 'environment'
      const value = readValue(name, option, fromEnv, 'environment')
      values[name] = option.multiple ? [value] : value
    } else if (inFile !== undefined) {
      sources[name] = 'config file'
      const read = inFile.map((raw) =>
        readValue(name, option, raw, 'config file', file?.path, fromEnvironment[name]),
      )
      values[name] = option.multiple ? read : read[0]
    } else {
      sources[name] = 'default'
      values[name] = option.default ?? (option.multiple ? [] : option.kind.flag ? false : undefined)
    }
  }
  return {
    values: values as Parsed<C>['values'],
    positionals: parsed.positionals,
    sources,
    ...(file ? { configPath: file.path } : {}),
  }
}

export interface Parsed<C extends CommandSpec> {
  values: OptionValues<C> & { help: boolean; config?: string | undefined }
  positionals: string[]
  sources: Record<string, ValueSource>
  /** The config file the values were read from, if any. */
  configPath?: string
}

/**
 * `parseCommand` with the command's config file: the one `--config` names, else the first default name
 * found in `cwd`. The command line wins over the environment, which wins over the file.
 * @example const { values } = await loadCommand(conformanceCommand, process.argv.slice(2))
 */
export async function loadCommand<C extends CommandSpec>(
  command: C,
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  cwd = process.cwd(),
): Promise<Parsed<C>> {
  const first = parseCommand(command, argv, env)
  if (!command.configFile || first.values.help) return first
  const { readConfigFile } = await import('./config-file.ts')
  const file = await readConfigFile(first.values.config as string | undefined, command.configFile, cwd)
  return file ? parseCommand(command, argv, env, file) : first
}

/**
 * The file's values as raw strings per option, after refusing unknown keys and written secrets, and which
 * options read an environment variable (by its name).
 */
function fileValues(
  command: CommandSpec,
  file: ConfigFile,
  env: Readonly<Record<string, string | undefined>>,
): { raw: Record<string, string[]>; fromEnvironment: Record<string, string> } {
  const allowed = Object.keys(command.options)
  const unknown = Object.keys(file.values).filter((key) => !allowed.includes(key))
  if (unknown.length > 0)
    throw new UsageError(
      `${file.path}: unknown ${unknown.length === 1 ? 'key' : 'keys'} ${unknown.map((key) => `"${key}"`).join(', ')}. Allowed keys: ${allowed.join(', ')}.`,
    )
  const raw: Record<string, string[]> = {}
  const fromEnvironment: Record<string, string> = {}
  for (const [name, written] of Object.entries(file.values)) {
    const option = command.options[name] as OptionSpec<unknown>
    const items = option.multiple && Array.isArray(written) ? written : [written]
    raw[name] = items.map((item) => {
      if (isEnvReference(item)) {
        const value = env[item.env]
        if (value === undefined || value === '')
          throw new UsageError(
            `${file.path}: "${name}" reads the environment variable ${item.env}, which is not set.`,
          )
        fromEnvironment[name] = item.env
        return value
      }
      if (option.secret)
        throw new UsageError(
          `${file.path}: "${name}" is a secret and cannot be written in the file; write {"env": "VARIABLE"} and set that variable instead.`,
        )
      const text = Array.isArray(item)
        ? item.join(',')
        : typeof item === 'object' || item === null
          ? undefined
          : String(item)
      if (text === undefined)
        throw new UsageError(
          `${file.path}: "${name}" must be ${option.kind.accepts}, or {"env": "VARIABLE"}.`,
        )
      const refused = option.refuseInFile?.(text)
      if (refused) throw new UsageError(`${file.path}: "${name}" ${refused}`)
      return text
    })
  }
  return { raw, fromEnvironment }
}

function isEnvReference(value: unknown): value is { env: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.keys(value).length === 1 &&
    typeof (value as { env?: unknown }).env === 'string'
  )
}

function readValue(
  name: string,
  option: OptionSpec<unknown>,
  raw: string,
  source: ValueSource,
  path?: string,
  environmentVariable?: string,
): unknown {
  const value = option.kind.read(raw)
  if (value !== undefined) return value
  // A file names a variable to keep its value out of the file: it is not shown here either (it may be
  // a secret given to the wrong key).
  const shown = option.secret
    ? ''
    : environmentVariable
      ? `; got the value of ${environmentVariable} (not shown)`
      : `; got "${raw}"`
  const where =
    source === 'environment'
      ? `${option.env} (for --${name})`
      : source === 'config file'
        ? `${path}: "${name}"`
        : `--${name}`
  throw new UsageError(`${where} must be ${option.kind.accepts}${shown}.`)
}

const helpColumn = 24

/** The command's `--help`, written from its table. */
export function helpText(command: CommandSpec): string {
  const [first = '', ...more] = command.usage
  const lines = [
    `Usage: ${first}`,
    ...more.map((line) => `       ${line}`),
    '',
    command.summary,
    '',
    'Options:',
  ]
  const options: [string, OptionSpec<unknown>][] = [
    ...(Object.entries(command.options) as [string, OptionSpec<unknown>][]),
    [
      'help',
      { kind: { placeholder: '', accepts: '', read: () => true, flag: true }, help: 'show this help' },
    ],
  ]
  for (const [name, option] of options) {
    const left = `  --${name}${option.kind.placeholder ? ` ${option.kind.placeholder}` : ''}`
    const notes = [defaultOf(option), option.env ? `env ${option.env}` : undefined].filter(Boolean)
    const described = `${option.help}${notes.length ? ` (${notes.join('; ')})` : ''}`.split('\n')
    const [head = '', ...rest] = described
    if (left.length < helpColumn - 1) lines.push(`${left.padEnd(helpColumn)}${head}`)
    else lines.push(left, `${' '.repeat(helpColumn)}${head}`)
    for (const line of rest) lines.push(`${' '.repeat(helpColumn)}${line}`)
  }
  if (command.footer) lines.push('', command.footer)
  return lines.join('\n')
}

/** The command's options as a Markdown table, for the docs (a test keeps the docs' copy equal to it). */
export function optionsTable(command: CommandSpec): string {
  const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')
  const rows = (Object.entries(command.options) as [string, OptionSpec<unknown>][]).map(([name, option]) => {
    const value = option.kind.placeholder ? ` ${option.kind.placeholder}` : ''
    const more = option.multiple ? ' (repeatable)' : ''
    return `| \`--${name}${value}\`${more} | ${cell(option.help)} | ${cell(defaultOf(option) ?? '')} | ${option.env ? `\`${option.env}\`` : ''} |`
  })
  return ['| Option | What it does | Default | Environment |', '|---|---|---|---|', ...rows].join('\n')
}

function defaultOf(option: OptionSpec<unknown>): string | undefined {
  if (option.defaultText !== undefined) return `default ${option.defaultText}`
  const value = option.default
  if (value === undefined || value === false || (Array.isArray(value) && value.length === 0)) return undefined
  const show = option.kind.show ?? String
  return `default ${Array.isArray(value) ? value.map((one) => show(one as never)).join(', ') : show(value as never)}`
}
