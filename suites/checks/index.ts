// Every check of the suite, in the order they start; the face of suites/checks/.
import type { Check } from '../engine/index.ts'
import { authBeforeValidationChecks } from './auth-before-validation.ts'
import { authenticationChecks } from './authentication.ts'
import { clientFormChecks } from './client-forms.ts'
import { createPetChecks } from './create-pet.ts'
import { deprecationDateChecks } from './deprecation-dates.ts'
import { existenceWithoutKeyChecks } from './existence-without-key.ts'
import { generatedValueChecks } from './generated-value-checks.ts'
import { getPetChecks } from './get-pet.ts'
import { headerUrlChecks } from './header-urls.ts'
import { listPetsChecks } from './list-pets.ts'
import { openOperationChecks } from './open-operations.ts'
import { refusedCreatesStoreNothing } from './refusal-side-effects.ts'
import { safeMethodProbes } from './safe-method-probes.ts'
import { servedAfterSunsetChecks } from './served-after-sunset.ts'
import { sharedCacheChecks } from './shared-caches.ts'
import { createdPetsSurvive, statefulChecks } from './stateful-links.ts'
import { statefulModelCheck } from './stateful-model-check.ts'
import { undeclaredWrites } from './undeclared-writes.ts'

/** Checks that look back over the whole run: they start once every check of `allChecks` has finished. */
export const finalChecks: Check[] = [createdPetsSurvive, refusedCreatesStoreNothing]

/**
 * Checks that start once the final ones have finished: a broken server may destroy data on their requests
 * (`DELETE /pets` wiping the store), which nothing else of the run may still need.
 */
export const lastChecks: Check[] = [undeclaredWrites]

/** Every check of the suite but the final ones and coverage (which runs last, over what all others saw). */
export const allChecks: Check[] = [
  // The longest check, one sequence after another: started first, it overlaps all the others.
  statefulModelCheck,
  ...listPetsChecks,
  ...createPetChecks,
  ...getPetChecks,
  ...statefulChecks,
  ...generatedValueChecks,
  ...authenticationChecks,
  ...openOperationChecks,
  safeMethodProbes,
  ...headerUrlChecks,
  // Defect classes found in other stacks' trackers (README, "Proving the suite").
  ...sharedCacheChecks,
  ...authBeforeValidationChecks,
  ...existenceWithoutKeyChecks,
  ...deprecationDateChecks,
  ...servedAfterSunsetChecks,
  // Requests as real clients send them: valid, so every one must be accepted.
  ...clientFormChecks,
]

export { type CoverageRow, type CoverageState, coverageCheck, coverageTable } from './coverage-check.ts'
export { type ConsumerDeprecatedUse, pactChecks, pactDeprecatedUse } from './pact-interactions.ts'
export { unlikelyId } from './stateful-model.ts'
