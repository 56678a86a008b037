// The face of contract/diff/: what the command and its tests take from the contract diff.
export { diffContracts } from './diff-contracts.ts'
