import type { Faker } from '@faker-js/faker'
// Only the English locale: the package's main entry loads every locale, ~150 ms of start-up for nothing.
import { faker as englishFaker } from '@faker-js/faker/locale/en'
import type { NewPet, PetStatus } from '../../contract/types.ts'

/** The seed used when none is given, so every run and every runtime starts from the same pets. */
export const defaultSeed = 20301205
/** How many pets the mock starts with when not told. */
export const defaultPetCount = 50

// Categories are plain ids (the Category resource is not defined); twelve keeps names and ids plausible.
const categoryCount = 12
const statusWeights: { weight: number; value: PetStatus }[] = [
  { weight: 6, value: 'available' },
  { weight: 2, value: 'pending' },
  { weight: 2, value: 'sold' },
]

/**
 * Generates `count` realistic pets from `seed`: the same seed gives the same pets in every runtime (Node,
 * browser) and every run. A fresh Faker instance per call keeps callers from disturbing each other.
 * @example seedPets(1, 2) // [{ name: 'Bella', categoryId: 4, status: 'available' }, ...]
 */
export function* seedPets(seed: number, count: number): Generator<NewPet> {
  const FakerClass = englishFaker.constructor as typeof Faker
  const faker = new FakerClass({ locale: englishFaker.rawDefinitions, seed })
  for (let index = 0; index < count; index++) {
    yield {
      name: faker.animal.petName(),
      categoryId: faker.number.int({ min: 1, max: categoryCount }),
      status: faker.helpers.weightedArrayElement(statusWeights),
    }
  }
}
