// A run's state for checks run in the test's own process, against a server on a real socket.
import { createRunState } from '../engine/index.ts'

/**
 * The state one conformance run shares between its checks, for a test that runs checks itself
 * (`runCheck`) rather than the command: bounds as tight as a test wants, one example per value.
 */
export function inProcessRun(server: { baseUrl: string; apiKey: string }, namePrefix: string) {
  return createRunState({
    baseUrl: server.baseUrl,
    apiKey: server.apiKey,
    readOnly: false,
    requestTimeoutMs: 5_000,
    maxResponseBytes: 4 * 1024 * 1024,
    runDeadline: Date.now() + 60_000,
    namePrefix,
    seed: 1,
    maxExamples: 1,
  })
}
