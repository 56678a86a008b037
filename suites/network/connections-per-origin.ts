// How many connections the run keeps to one origin: the most requests it has in flight to a server at once.
/**
 * 32: against a server 100 ms away, a run of ~600 requests needs 600 ÷ 32 × 0.1 ≈ 1.9 s of round trips
 * with every connection busy (16 gave 3.8 s, over the 4 s a distant run is allowed: docs/benchmarks.md).
 * Below what a browser opens to one site through HTTP/2 (100 streams) and what nginx's and Node's
 * defaults accept without notice; a rate limit is still met by pacing, not by this cap. The checks running
 * at once stay at 16 (suites/run/run-suite.ts): what they hold is the run's memory.
 */
export const connectionsPerOrigin = 32
