// The unhandled-request option under both names msw 2 and msw 3 read, so one call works with either.
/** What MSW does with a request no handler answers: let it through, warn, or fail it. */
export type UnhandledRequestStrategy = 'bypass' | 'warn' | 'error'

/**
 * The option MSW reads for requests no handler answers, under the name each major reads: msw 2 calls it
 * `onUnhandledRequest`, msw 3 renamed it `onUnhandledFrame` (frames cover WebSocket connections too) and
 * silently ignores the old name. Each major ignores the other's name, so passing both works under either.
 * Spread it into `server.listen()` or `worker.start()` options.
 * @note Typed loosely on purpose: a literal with either name alone fails `tsc` under the other major
 * (TS2353), and this object is assignable to both majors' option types.
 * @example server.listen(unhandledRequests('error')) // an unmocked request fails the test, msw 2 or 3
 */
export function unhandledRequests(strategy: UnhandledRequestStrategy): {
  onUnhandledRequest: UnhandledRequestStrategy
  onUnhandledFrame: UnhandledRequestStrategy
} {
  return { onUnhandledRequest: strategy, onUnhandledFrame: strategy }
}
