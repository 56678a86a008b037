import { readContractDocument } from './read-document.ts'

/** The contract as Node gets it: the YAML, read when this module loads. */
export const contractDocument = readContractDocument()
