// Everything the suite file (animal-store.conformance.ts) runs, in one module with no vitest in it, so that
// the runner's thread can load it ahead, while vitest is still starting in the command's own thread
// (prestarted-worker.ts); the suite file then finds it already loaded. The suite file imports only this.

export { stageChecks } from './check-stages.ts'
