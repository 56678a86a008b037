// The face of contract/diff/: what the command and its tests take from the contract diff.

export type { ContractChange, ContractDiff, Side } from './contract-change.ts'
export { type DiffInput, diffContracts } from './diff-contracts.ts'
