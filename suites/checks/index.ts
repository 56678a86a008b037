import type { Check } from '../check-context.ts'
import { authenticationChecks } from './authentication.ts'
import { createPetChecks } from './create-pet.ts'
import { generatedValueChecks } from './generated-values.ts'
import { getPetChecks } from './get-pet.ts'
import { listPetsChecks } from './list-pets.ts'
import { statefulChecks } from './stateful-links.ts'
import { statefulModelCheck } from './stateful-model.ts'

/** Every check of the suite but coverage (which runs last, over what the others saw). */
export const allChecks: Check[] = [
  // The longest check, one sequence after another: started first, it overlaps all the others.
  statefulModelCheck,
  ...listPetsChecks,
  ...createPetChecks,
  ...getPetChecks,
  ...statefulChecks,
  ...generatedValueChecks,
  ...authenticationChecks,
]
