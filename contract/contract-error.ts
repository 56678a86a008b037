// The contract code's one error class, in a file of its own: the loader, walker and validators all throw it.
/**
 * The one error class the contract code throws, for failures that are not the caller's data
 * (a broken document, an unknown operation id). Messages say what failed, why, and what to do.
 */
export class ContractError extends Error {
  override name = 'ContractError'
}
