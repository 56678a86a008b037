// One mock's state (store, seed, scenario, conditions, journal) and the reset that rebuilds it aside.

import { isDay } from './calendar-day.ts'
import { type ConditionOptions, type Conditions, resolveConditions } from './conditions.ts'
import { type MemoryBudget, memoryBudget } from './memory-budget.ts'
import { PetStore, type SeededPets } from './pet-store.ts'
import { RequestJournal } from './request-journal.ts'
import { maxSeededPets, type ResetOptions, resetOptionKeys } from './reset-options.ts'
import { isScenarioName, type ScenarioName, scenarioNames, scenarioPets, scenarios } from './scenarios.ts'
import { defaultSeed } from './seed-pets.ts'
import { seededRandom } from './seeded-random.ts'

export { maxSeededPets }

/** What a reset takes: the seed, count and scenario, and latency and faults (see reset-options.ts). */
export type SeedOptions = ResetOptions

export interface MockStateOptions extends ResetOptions {
  /** Byte budgets of the store and its page cache (see memory-budget.ts); defaults fit a laptop. */
  budget?: Partial<MemoryBudget>
  /**
   * Where stores share one budget (the HTTP mock's sessions): the bytes the other stores leave this one.
   * Checked on every pet added, seeded ones included, besides `budget.maxStoreBytes`.
   */
  storeRoom?: () => number
  /** How many requests the journal keeps (default 1000; 0 turns it off). */
  journalSize?: number
  /**
   * The pets of this same configured start, already seeded by another state (the HTTP mock's default
   * session): taken as they are, shared and never written, instead of seeded again.
   */
  seededPets?: SeededPets
}

/** How a reset ended: the pets are in, or the seed did not fit and the old pets were kept. */
export type ResetOutcome = { ok: true } | { ok: false; reason: string }

/**
 * A reset in progress: the new pets are built aside in steps, and swapped in only by `commit`, so the
 * store keeps serving its old pets meanwhile and a reset that cannot finish loses nothing.
 */
export interface ResetJob {
  /** Seeds until done or until `performance.now()` passes `deadline`; true once no work is left. */
  step(deadline: number): boolean
  /** Swaps the seeded pets in (when they all fit) and says how it went. */
  commit(): ResetOutcome
}

/** The mock's state: one store, how it was seeded so it can be seeded again, and what it has been asked. */
export interface MockState {
  readonly store: PetStore
  readonly seed: number
  readonly seededPets: number
  readonly scenario: ScenarioName
  /** What the mock was started with: where every reset returns, unless the reset names its own. */
  readonly configured: ResetOptions
  /** Latency and faults in force: the mock's own options over the scenario's presets. */
  readonly conditions: Conditions
  /** The day the mock acts on (`date`), or undefined for today: past a sunset, an operation is removed. */
  readonly date: string | undefined
  /** The configured start's pets once seeded, for other states of the same start to share. */
  readonly configuredPets: SeededPets | undefined
  /** The last requests; cleared by every reset. */
  readonly journal: RequestJournal
  /** The seeded generator latency ranges and fault rates draw from; started again by every reset. */
  random(): number
  /**
   * Empties the store and seeds it again, all at once. Every reset starts from `configured` (what the
   * mock was started with); each option given replaces that one option for this reset. A scenario other
   * than the configured one brings its own count of pets unless `pets` is given.
   * @throws when an option is out of range (check untrusted input with readResetOptions first).
   */
  reset(options?: SeedOptions): ResetOutcome
  /** The same reset, to be run in steps (mocks/http/reset-in-steps.ts runs it between other requests). */
  beginReset(options?: SeedOptions): ResetJob
}

// How many pets are seeded between two looks at the clock: ~1 ms of work.
const petsPerClockCheck = 1024

/**
 * Creates a store seeded with `pets` faker pets from `seed` (defaults: a fixed seed, the scenario's pets).
 * @throws when the options are out of range or the pets do not fit the budget.
 * @example const state = createMockState({ seed: 7, pets: 3 }); state.store.size // 3
 */
export function createMockState(options: MockStateOptions = {}): MockState {
  const budget = memoryBudget(options.budget)
  const store = new PetStore(budget, options.storeRoom)
  const configured: ResetOptions = {}
  for (const key of resetOptionKeys) {
    if (options[key] !== undefined) Object.assign(configured, { [key]: options[key] })
  }
  // Checked now, so a bad option fails at start rather than at the first reset into a preset.
  resolveConditions(configured)
  if (configured.date !== undefined && !isDay(configured.date))
    throw new Error(
      `date must be a day written YYYY-MM-DD, such as "2030-12-05"; got ${JSON.stringify(configured.date)}.`,
    )
  const scenario = options.scenario ?? 'default'
  if (!isScenarioName(scenario))
    throw new Error(`Unknown scenario "${scenario}": use one of ${scenarioNames.join(', ')}.`)
  /** The configured start with the reset's own options over it. */
  const startOf = (next: ResetOptions) => {
    const scenario = next.scenario ?? configured.scenario ?? 'default'
    const changedScenario =
      next.scenario !== undefined && next.scenario !== (configured.scenario ?? 'default')
    const count = next.pets ?? (changedScenario ? undefined : configured.pets) ?? scenarios[scenario].pets
    const own: ConditionOptions = {}
    for (const key of ['latency', 'faultRate', 'faultKinds', 'operations'] as const) {
      const value = next[key] ?? configured[key]
      if (value !== undefined) Object.assign(own, { [key]: value })
    }
    // The mock's own latency and faults (configured or given) win over a scenario's presets.
    const conditions = resolveConditions({ ...scenarios[scenario].conditions, ...own })
    const date = next.date ?? configured.date
    return { scenario, seed: next.seed ?? configured.seed ?? defaultSeed, count, conditions, date }
  }
  const configuredStart = startOf({})
  const isConfiguredStart = (start: ReturnType<typeof startOf>) =>
    start.scenario === configuredStart.scenario &&
    start.seed === configuredStart.seed &&
    start.count === configuredStart.count
  const state = {
    store,
    seed: options.seed ?? defaultSeed,
    seededPets: options.pets ?? scenarios[scenario].pets,
    configuredPets: options.seededPets,
    scenario,
    configured,
    conditions: configuredStart.conditions,
    date: configured.date,
    journal: new RequestJournal(options.journalSize),
    random: seededRandom(options.seed ?? defaultSeed),
    reset(next: SeedOptions = {}) {
      const job = state.beginReset(next)
      job.step(Number.POSITIVE_INFINITY)
      return job.commit()
    },
    beginReset(next: SeedOptions = {}): ResetJob {
      const start = startOf(next)
      const { seed, scenario, count, conditions, date } = start
      const configuredAgain = isConfiguredStart(start)
      const shared = configuredAgain ? state.configuredPets : undefined
      // Seeded against the configured budget, never a `full` scenario's shrunken one.
      const fresh = store.emptyCopy(budget)
      // The configured start's pets, seeded once: taken whole (or refused whole, as they will not fit
      // rebuilt either), with nothing to seed.
      const takesShared = shared !== undefined && fresh.fitsSeeded(shared)
      if (takesShared) fresh.holdSeeded(shared)
      const pets = scenarioPets(scenarios[scenario], seed, count)
      let full = shared !== undefined && !takesShared
      let done = count === 0 || shared !== undefined
      return {
        step(deadline) {
          while (!done) {
            for (let index = 0; index < petsPerClockCheck; index++) {
              const next = pets.next()
              if (next.done) {
                done = true
                break
              }
              if (!fresh.tryAdd(next.value)) {
                full = true
                done = true
                break
              }
            }
            if (performance.now() >= deadline) break
          }
          return done
        },
        commit() {
          if (full || fresh.size < count) {
            return {
              ok: false,
              reason: `${count} seeded pets do not fit in the store's budget of ${budget.maxStoreBytes} bytes${options.storeRoom ? ', shared with the other sessions,' : ''} (${shared ? `they take ${shared.bytes} bytes` : `${fresh.size} did`}). Ask for fewer pets, or start the mock with a larger --max-store-bytes.`,
            }
          }
          if (configuredAgain && !shared) state.configuredPets = fresh.seal()
          store.replaceWith(fresh)
          // The store at its byte budget: the seeded pets fill it exactly, so any create is a 507.
          if (scenarios[scenario].full) store.shrinkBudgetToContents()
          state.seed = seed
          state.seededPets = count
          state.scenario = scenario
          state.conditions = conditions
          state.date = date
          state.random = seededRandom(seed)
          state.journal.clear()
          return { ok: true }
        },
      }
    },
  }
  const seeded = state.reset()
  if (!seeded.ok) throw new Error(`Failed to seed the mock: ${seeded.reason}`)
  return state
}
