// The options a reset takes in every runtime, and the check that refuses an unknown key or a wrong type.
import { isRecord } from '../../contract/openapi-document.ts'
import { isDay } from './calendar-day.ts'
import { type ConditionOptions, faultKinds, maxDelayMs, resolveConditions } from './conditions.ts'
import { isScenarioName, type ScenarioName, scenarioNames } from './scenarios.ts'

/** The largest seeded store `reset` accepts (the store is sized and benchmarked for a million). */
export const maxSeededPets = 1_000_000

/**
 * Everything that changes how the mock behaves, by the same names in every runtime: `createMockApi`,
 * `startBrowserMock`, `api.reset(...)` and the body of `POST /__mock/reset`.
 */
export interface ResetOptions extends ConditionOptions {
  /** Seed of the generated pets (same seed, same pets) and of drawn latencies and faults. */
  seed?: number
  /** How many pets to seed (default: the scenario's count, 50 for `default`). */
  pets?: number
  /** The named starting state (default `default`); see scenarios.ts. */
  scenario?: ScenarioName
  /**
   * The day the mock acts on, `YYYY-MM-DD` (default: today, UTC): past an operation's `x-sunset` it answers
   * 410 `operation_removed`, so a frontend can run its tests as of the removal day.
   */
  date?: string
}

/** The keys a reset accepts, in the order the docs and error messages list them. */
export const resetOptionKeys = [
  'scenario',
  'seed',
  'pets',
  'latency',
  'faultRate',
  'faultKinds',
  'operations',
  'date',
] as const satisfies readonly (keyof ResetOptions)[]

const operationKeys = ['latency', 'faultRate'] as const

export type ReadResetOptions = { ok: true; options: ResetOptions } | { ok: false; message: string }

/**
 * Checks a reset body (already parsed JSON, or what a JavaScript caller passed): unknown keys and wrong
 * types are refused with a message naming the key and what it accepts, so a typo such as `scenaro` is
 * an error rather than a reset that silently ignores it.
 * @param operationIds the contract's operation ids, the only names `operations` accepts.
 * @example readResetOptions({ scenario: 'empty' }, ['listPets']) // { ok: true, options: { scenario: 'empty' } }
 */
export function readResetOptions(value: unknown, operationIds: readonly string[]): ReadResetOptions {
  const refuse = (message: string) => ({ ok: false as const, message })
  if (!isRecord(value))
    return refuse(
      `The reset options must be an object such as {"scenario": "empty"}; got ${describe(value)}.`,
    )
  const unknown = Object.keys(value).filter((key) => !(resetOptionKeys as readonly string[]).includes(key))
  if (unknown.length > 0)
    return refuse(
      `Unknown reset option${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => JSON.stringify(key)).join(', ')}: the allowed keys are ${resetOptionKeys.join(', ')}.`,
    )
  const { seed, pets, scenario, latency, faultRate, faultKinds: kinds, operations, date } = value
  if (date !== undefined && !isDay(date))
    return refuse(`date must be a day written YYYY-MM-DD, such as "2030-12-05"; got ${describe(date)}.`)
  if (seed !== undefined && !Number.isSafeInteger(seed))
    return refuse(`seed must be an integer; got ${describe(seed)}.`)
  if (
    pets !== undefined &&
    (!Number.isSafeInteger(pets) || (pets as number) < 0 || (pets as number) > maxSeededPets)
  )
    return refuse(`pets must be an integer from 0 to ${maxSeededPets}; got ${describe(pets)}.`)
  if (scenario !== undefined && !isScenarioName(scenario))
    return refuse(`scenario must be one of ${scenarioNames.join(', ')}; got ${describe(scenario)}.`)
  const latencyProblem = latency === undefined ? undefined : checkLatencyShape('latency', latency)
  if (latencyProblem) return refuse(latencyProblem)
  if (faultRate !== undefined && typeof faultRate !== 'number')
    return refuse(`faultRate must be a number from 0 to 1, such as 0.05; got ${describe(faultRate)}.`)
  if (
    kinds !== undefined &&
    (!Array.isArray(kinds) || !kinds.every((kind) => (faultKinds as readonly unknown[]).includes(kind)))
  )
    return refuse(`faultKinds must be a list of ${faultKinds.join(', ')}; got ${describe(kinds)}.`)
  if (operations !== undefined) {
    if (!isRecord(operations))
      return refuse(
        `operations must be an object such as {"createPet": {"faultRate": 1}}; got ${describe(operations)}.`,
      )
    for (const [id, setting] of Object.entries(operations)) {
      if (!operationIds.includes(id))
        return refuse(`operations has an unknown operation "${id}": use ${operationIds.join(', ')}.`)
      if (!isRecord(setting))
        return refuse(
          `operations.${id} must be an object such as {"latency": 300}; got ${describe(setting)}.`,
        )
      const extra = Object.keys(setting).filter((key) => !(operationKeys as readonly string[]).includes(key))
      if (extra.length > 0)
        return refuse(
          `operations.${id} has unknown key${extra.length > 1 ? 's' : ''} ${extra.map((key) => JSON.stringify(key)).join(', ')}: the allowed keys are ${operationKeys.join(', ')}.`,
        )
      const own =
        setting.latency === undefined
          ? undefined
          : checkLatencyShape(`operations.${id}.latency`, setting.latency)
      if (own) return refuse(own)
      if (setting.faultRate !== undefined && typeof setting.faultRate !== 'number')
        return refuse(
          `operations.${id}.faultRate must be a number from 0 to 1; got ${describe(setting.faultRate)}.`,
        )
    }
  }
  const options = Object.fromEntries(
    Object.entries(value).filter(([, option]) => option !== undefined),
  ) as ResetOptions
  // The ranges (0 to 60000 ms, min <= max, rates from 0 to 1) are the core's one check.
  try {
    resolveConditions(options)
  } catch (error) {
    return refuse((error as Error).message)
  }
  return { ok: true, options }
}

function checkLatencyShape(name: string, latency: unknown): string | undefined {
  if (typeof latency === 'number') return undefined
  if (
    isRecord(latency) &&
    typeof latency.min === 'number' &&
    typeof latency.max === 'number' &&
    Object.keys(latency).length === 2
  )
    return undefined
  return `${name} must be whole milliseconds from 0 to ${maxDelayMs} (such as 300) or a range {"min": 200, "max": 800}; got ${describe(latency)}.`
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}
