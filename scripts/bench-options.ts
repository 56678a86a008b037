// The options of `npm run bench`, declared once: its parser, --help and the documented-options test read them.
import { defineCommand } from './cli/command-options.ts'
import { commaList, flag, integer, oneOf, seconds } from './cli/option-kinds.ts'

export const benchCommand = defineCommand({
  name: 'npm run bench',
  usage: ['npm run bench -- [options]'],
  summary: `Measures our mock (what npm start runs) against a bare node:http server sending the same bytes, in the
same run, on loopback: GET /v1/pets?limit=20, with ?status=sold, and with one create in every ten
requests. For each: the server's own CPU time per request (from /proc) and its request rate, each as a
ratio to the bare server, over several alternating rounds; and the request journal's cost (our mock
with and without it), and what sessions cost a client that sends no X-Mock-Session (in-process, the
core's handler with and without the session pool in front). Then time to first response, Prism's mock
and proxy, listPets latency at 1k-1M stored pets, the heap bytes a stored pet costs, another session's
worst wait while new X-Mock-Session names start with 1M seeded pets (against its worst with none starting), how long a full
conformance run takes against vitest running one trivial test file, and how long one takes against
our mock behind a proxy that adds 100 ms to every request (distant staging). Results also go to
reports/bench.json.

Load comes from wrk when it is installed (wrk and the servers pinned to different cores with taskset);
else from autocannon, which shares the CPU with the servers and compresses every ratio toward 1.`,
  options: {
    duration: { kind: seconds(120), help: 'seconds of load per round, after a 1 s warm-up', default: 3 },
    rounds: {
      kind: integer(1, 20),
      help: 'alternating rounds per scenario (the report gives median and range)',
      default: 3,
    },
    connections: { kind: integer(1, 1024), help: 'concurrent connections', default: 32 },
    load: { kind: oneOf(['auto', 'wrk', 'autocannon']), help: 'the load generator', default: 'auto' },
    sizes: {
      kind: commaList(integer(1, 1_000_000)),
      help: 'store sizes for the list-latency run',
      default: [1000, 100_000, 1_000_000],
      defaultText: '1000,100000,1000000',
    },
    'seeding-pets': {
      kind: integer(0, 1_000_000),
      help: "pets new sessions start with while another session's worst wait is timed;\n0 leaves it out",
      default: 1_000_000,
    },
    'skip-prism': { kind: flag, help: 'leave Prism out (it needs ~3 s to start)' },
    'conformance-rounds': {
      kind: integer(0, 20),
      help: 'full conformance runs (and trivial vitest runs) to time, alternating;\n0 leaves the conformance start-up out',
      default: 7,
    },
    'distant-rounds': {
      kind: integer(0, 20),
      help: 'full runs behind a proxy adding 100 ms to every request (and as many straight\nto the mock), alternating; 0 leaves distant staging out',
      default: 3,
    },
    'distant-verdicts': {
      kind: flag,
      help: 'also judge every proof server (117) straight and behind the 100 ms proxy, and\ncompare their findings (~10 minutes on 2 cores)',
    },
    'skip-throttled': {
      kind: flag,
      help: 'leave out the full runs behind a throttling proxy (20 r/s, burst 40; ~1.5 min)',
    },
  },
})
