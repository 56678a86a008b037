// The values the suite sends, generated from the contract: valid and invalid bodies, near-miss spellings and
// keys.
// The face of suites/values/: other folders import from here, never from its files.

export {
  type ClientFormId,
  type ClientProfile,
  clientForm,
  clientProfiles,
  clientsSending,
  refusalOf,
} from './client-forms.ts'
export {
  awkwardBodies,
  fieldValues,
  int64Refused,
  nearMissPathIds,
  nearMissQueries,
  pathSpellings,
  validBodies,
} from './generated-values.ts'
export { nearMissCredentials } from './near-miss-credentials.ts'
export { negativeBodies } from './negative-bodies.ts'
