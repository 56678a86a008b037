// Everything the suite file (animal-store.conformance.ts) runs, in one module with no vitest in it, so that
// the runner's thread can load it ahead, while vitest is still starting in the command's own thread
// (prestarted-worker.ts), and begin the run's checks there; the suite file then finds it already loaded,
// and the checks under way. The suite file imports only this.

export { beginChecks, suiteChecks } from './early-checks.ts'
