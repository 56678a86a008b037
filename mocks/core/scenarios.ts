// The named starting states a reset can switch to (empty, many, full, slow, flaky) and their pets.
import type { Faker } from '@faker-js/faker'
import { faker as englishFaker } from '@faker-js/faker/locale/en'
import type { NewPet } from '../../contract/types.ts'
import type { ConditionOptions } from './conditions.ts'
import { defaultPetCount, seedPets } from './seed-pets.ts'

/** Named starting states; `POST /__mock/reset {"scenario": "many"}` switches between them without a restart. */
export const scenarioNames = ['default', 'empty', 'many', 'full', 'slow', 'flaky'] as const
export type ScenarioName = (typeof scenarioNames)[number]

export interface Scenario {
  /** How many pets it seeds unless a count is given. */
  pets: number
  /** Seeds long, non-Latin names instead of plain pet names. */
  longNames?: boolean
  /** Shrinks the store's byte budget to the seeded pets, so every create answers 507 store_full. */
  full?: boolean
  /** Latency and faults it sets, unless the mock was given its own. */
  conditions?: ConditionOptions
}

/**
 * What each scenario starts from. `slow` and `flaky` are presets over the default pets; options given to
 * the mock itself (flags, createMockApi options) always win over a preset.
 */
export const scenarios: Readonly<Record<ScenarioName, Scenario>> = {
  default: { pets: defaultPetCount },
  empty: { pets: 0 },
  many: { pets: 10_000, longNames: true },
  full: { pets: defaultPetCount, full: true },
  // A slow mobile network: half a second to two seconds per answer.
  slow: { pets: defaultPetCount, conditions: { latency: { min: 500, max: 2000 } } },
  // One request in five fails, by a 5xx, a dropped connection or a body cut short (never a hang).
  flaky: { pets: defaultPetCount, conditions: { faultRate: 0.2 } },
}

/** Whether `name` is a scenario, for checking what a flag or a reset body sent. */
export function isScenarioName(name: unknown): name is ScenarioName {
  return typeof name === 'string' && (scenarioNames as readonly string[]).includes(name)
}

/** The pets a scenario seeds: the usual ones, or (for `many`) the same pets with long, non-Latin names. */
export function scenarioPets(scenario: Scenario, seed: number, count: number): Iterator<NewPet> {
  return scenario.longNames ? seedLongNamedPets(seed, count) : seedPets(seed, count)
}

// Scripts a page must lay out and sort correctly: CJK, Cyrillic, Greek, Arabic and Hebrew (right to
// left), Devanagari, Thai, Hangul, Latin with diacritics, and an emoji sequence (several code points).
const foreignNames = [
  'ポチ',
  '小白',
  '旺财',
  'Шарик',
  'Мурзик',
  'Χαρά',
  'قطة',
  'בלה',
  'बिल्ली',
  'โมจิ',
  '뽀삐',
  'Łatka',
  'Ñandú',
  'Øyvind',
  '🐕‍🦺',
]

/**
 * Pets with names of 2 to 12 words mixing scripts, every hundredth about 1,000 characters long: what
 * breaks table layouts and truncation. 10,000 of them take ~30 ms to seed and ~2.5 MB of the budget.
 */
function* seedLongNamedPets(seed: number, count: number): Generator<NewPet> {
  const FakerClass = englishFaker.constructor as typeof Faker
  const faker = new FakerClass({ locale: englishFaker.rawDefinitions, seed })
  const plain = seedPets(seed, count)
  for (let index = 0; index < count; index++) {
    const pet = plain.next().value as NewPet
    const words = [pet.name]
    const extra = faker.number.int({ min: 1, max: 11 })
    for (let word = 0; word < extra; word++) words.push(faker.helpers.arrayElement(foreignNames))
    let name = words.join(' ')
    if (index % 100 === 99) name = `${name} `.repeat(Math.ceil(1000 / (name.length + 1))).trimEnd()
    yield { ...pet, name }
  }
}
