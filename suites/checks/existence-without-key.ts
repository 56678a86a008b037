// Checks that a caller without a key cannot tell which pets exist: getPet without one is 401 for any id.
import type { Check } from '../engine/index.ts'
import { unlikelyId } from './stateful-model.ts'

/**
 * Web Fuzzing Commons' fault 204, "Leakage Information Existence of Protected Resource": a server that loads
 * the pet before it checks the key (Express' `app.param`, a lookup in a filter mounted ahead of the auth one)
 * answers 404 for an id no pet has and 401 for one that exists, so a caller without a key learns which ids
 * exist. The other keyless reads of getPet ask for id 1, which a store with serial ids holds from its first
 * row; this one asks for an id no pet is likely to have. Authentication §1-3: without a key, 401 whatever
 * the id. One request; its finding joins getPet's other keyless ones, one hole.
 */
export const existenceWithoutKeyChecks: Check[] = [
  {
    group: 'security',
    name: 'getPet without a key for an id no pet has: 401 Error, as for one that exists (existence not told)',
    async run({ send }) {
      await send('getPet', {
        intent: 'unauthorized',
        fault: 'no credentials, for an id no pet has',
        authorization: null,
        path: { petId: unlikelyId },
      })
    },
  },
]
