import { describe, expect, it } from 'vitest'
import { defineCommand, helpText, optionsTable, parseCommand } from './command-options.ts'
import { bytes, commaList, day, flag, integer, matching, oneOf, port, seconds, text } from './option-kinds.ts'
import { UsageError } from './usage-error.ts'

const command = defineCommand({
  name: 'demo',
  usage: ['demo [options]'],
  summary: 'A command to pin the options layer.',
  options: {
    port: { kind: port, help: 'port to listen on', default: 4010 },
    timeout: { kind: seconds(600), help: 'deadline' },
    size: { kind: bytes(), help: 'budget', default: 1024 ** 2 },
    mode: { kind: oneOf(['fast', 'slow']), help: 'how', default: 'fast' },
    sizes: { kind: commaList(integer(1, 10)), help: 'sizes' },
    key: { kind: text('KEY'), help: 'the key', env: 'DEMO_KEY', secret: true },
    tag: { kind: text('TAG'), help: 'a tag', multiple: true },
    quiet: { kind: flag, help: 'say less' },
    date: { kind: day, help: 'the day' },
  },
})

describe('parseCommand', () => {
  it('gives each option its default, typed, when nothing is given', () => {
    const { values, sources } = parseCommand(command, [], {})
    expect(values).toEqual({
      help: false,
      port: 4010,
      timeout: undefined,
      size: 1024 ** 2,
      mode: 'fast',
      sizes: undefined,
      key: undefined,
      tag: [],
      quiet: false,
      date: undefined,
    })
    expect(sources.port).toBe('default')
  })

  it('reads every kind from the command line into its type', () => {
    const { values } = parseCommand(
      command,
      ['--port', '0', '--timeout', '1.5', '--size', '2M', '--mode', 'slow', '--sizes', '1, 2,3'],
      {},
    )
    expect(values).toMatchObject({
      port: 0,
      timeout: 1.5,
      size: 2 * 1024 ** 2,
      mode: 'slow',
      sizes: [1, 2, 3],
    })
    expect(parseCommand(command, ['--tag', 'a', '--tag', 'b', '--quiet'], {}).values).toMatchObject({
      tag: ['a', 'b'],
      quiet: true,
    })
  })

  it('takes a value from the environment variable its table names, and the command line over it', () => {
    expect(parseCommand(command, [], { DEMO_KEY: 'from-env' })).toMatchObject({
      values: { key: 'from-env' },
      sources: { key: 'environment' },
    })
    expect(parseCommand(command, ['--key', 'given'], { DEMO_KEY: 'from-env' }).values.key).toBe('given')
    expect(parseCommand(command, [], { DEMO_KEY: '' }).values.key).toBeUndefined()
  })

  it.each([
    [['--port', '70000'], '--port must be a port number from 0 to 65535; got "70000".'],
    [['--port', '4e3'], '--port must be a port number from 0 to 65535; got "4e3".'],
    [['--timeout', 'soon'], '--timeout must be a number of seconds above 0 and at most 600; got "soon".'],
    [['--timeout', '0'], '--timeout must be a number of seconds above 0 and at most 600; got "0".'],
    [['--size', '12'], '--size must be a byte count of at least 1024, such as 268435456 or 256M; got "12".'],
    [['--mode', 'medium'], '--mode must be one of fast, slow; got "medium".'],
    [
      ['--date', '2030-02-30'],
      '--date must be a date written YYYY-MM-DD, such as 2030-12-05; got "2030-02-30".',
    ],
    [
      ['--date', '5 Dec 2030'],
      '--date must be a date written YYYY-MM-DD, such as 2030-12-05; got "5 Dec 2030".',
    ],
    [
      ['--sizes', '1,,2'],
      '--sizes must be a comma-separated list of a whole number from 1 to 10; got "1,,2".',
    ],
  ])('refuses %j with an error naming the option and what it accepts', (argv, message) => {
    expect(() => parseCommand(command, argv, {})).toThrow(new UsageError(message))
  })

  it('takes a name prefix of letters, digits and dashes, and refuses one that would break the names', () => {
    const prefixed = defineCommand({
      ...command,
      options: {
        prefix: { kind: matching('PREFIX', /^[a-z-]{1,8}$/, 'lower-case letters and dashes'), help: 'p' },
      },
    })
    expect(parseCommand(prefixed, ['--prefix', 'ci-gate'], {}).values.prefix).toBe('ci-gate')
    expect(() => parseCommand(prefixed, ['--prefix', 'a b'], {})).toThrow(
      '--prefix must be lower-case letters and dashes',
    )
  })

  it('names the environment variable a bad value came from, and never repeats a secret', () => {
    const bad = defineCommand({
      ...command,
      options: { n: { kind: integer(1, 2), help: 'n', env: 'DEMO_N' } },
    })
    expect(() => parseCommand(bad, [], { DEMO_N: 'x' })).toThrow('DEMO_N (for --n) must be a whole number')
    const secret = defineCommand({
      ...command,
      options: { key: { kind: integer(1, 2), help: 'k', secret: true } },
    })
    expect(() => parseCommand(secret, ['--key', 'hunter2'], {})).toThrow(
      /^--key must be a whole number from 1 to 2\.$/,
    )
  })

  it('never repeats a value a config file took from an environment variable: it is kept out of files as a secret', () => {
    const file = { path: 'demo.json', values: { timeout: { env: 'STAGING_KEY' } } }
    expect(() => parseCommand(command, [], { STAGING_KEY: 'sk_live_abcd1234' }, file)).toThrow(
      'demo.json: "timeout" must be a number of seconds above 0 and at most 600; got the value of STAGING_KEY (not shown).',
    )
  })

  it('turns an unknown option or a missing value into a usage error', () => {
    expect(() => parseCommand(command, ['--bogus'], {})).toThrow(UsageError)
    expect(() => parseCommand(command, ['--port'], {})).toThrow(UsageError)
    expect(() => parseCommand(command, ['stray'], {})).toThrow(UsageError)
  })
})

describe('helpText and optionsTable', () => {
  it('list every option with its value, default and environment variable', () => {
    const help = helpText(command)
    expect(
      help.startsWith('Usage: demo [options]\n\nA command to pin the options layer.\n\nOptions:\n'),
    ).toBe(true)
    for (const name of Object.keys(command.options)) expect(help).toContain(`--${name}`)
    expect(help).toContain('  --port N              port to listen on (default 4010)')
    expect(help).toContain('  --size B              budget (default 1M)')
    expect(help).toContain('(env DEMO_KEY)')
    expect(help).toMatch(/ {2}--help {16}show this help$/)
    const table = optionsTable(command)
    expect(table.split('\n')).toHaveLength(2 + Object.keys(command.options).length)
    expect(table).toContain('| `--tag TAG` (repeatable) | a tag |  |  |')
    expect(table).toContain('| `--key KEY` | the key |  | `DEMO_KEY` |')
  })
})
