import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

// A smoke run of `npm run bench` (short, no Prism, autocannon so it runs where wrk is not installed): the
// command works and prints every table. It asserts the report's shape, never a speed: speed is what the
// benchmark reports, not what a test decides.
it('runs the benchmark end to end and prints CPU and rate ratios against the bare server', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/bench.ts',
      '--skip-prism',
      '--load',
      'autocannon',
      '--duration',
      '0.5',
      '--rounds',
      '1',
      '--sizes',
      '100,2000',
      '--conformance-rounds',
      '1',
      '--seeding-pets',
      '100000',
      // Two more whole runs, one behind a 100 ms proxy: measured by `npm run bench`, not in this smoke run.
      '--distant-rounds',
      '0',
      // ~2 minutes of full runs behind a rate limit: measured by `npm run bench`, not in this smoke run.
      '--skip-throttled',
    ],
    { cwd: root, timeout: 120_000 },
  )
  expect(stdout).toMatch(/^Load generator: autocannon .*compressed/m)
  expect(stdout).toMatch(
    /\| GET \/v1\/pets\?limit=20 \| [\d,]+ \| [\d,]+ \| \d+\.\d\d \| [\d.]+ \| [\d.]+ \| \d+\.\d\d \|/,
  )
  expect(stdout).toMatch(/\| GET \/v1\/pets\?status=sold \| /)
  expect(stdout).toMatch(/\| 1 create in 10 requests \(limit=20\) \| /)
  expect(stdout).toMatch(/\| on \(default, 1,000 entries\) \| [\d.,]+ \| \d+\.\d\d \|/)
  expect(stdout).toMatch(/\| sessions unused \(no X-Mock-Session\) \| [\d,]+ \| \d+\.\d\d \|/)
  expect(stdout).toContain('| sessions unused ≤ 1.05 × without sessions |')
  expect(stdout).toMatch(/\| our mock \(npm start\) \| .* \| \d+\.\d\d \|/)
  expect(stdout).toMatch(/\| 2,000 \| \d+ \| \d+ \| \d+\.\d\d \|/)
  expect(stdout).toMatch(/Heap bytes per stored pet: \d+/)
  expect(stdout).toMatch(
    /\| another session's GET \/v1\/pets\?limit=1 while new sessions start with 100,000 seeded pets \| worst ms \| answered \| sessions started \| × none starting \|/,
  )
  expect(stdout).toMatch(/\| new sessions starting \| [\d.,]+ \| [\d,]+ \| [\d,]+ \| \d+\.\d\d \|/)
  expect(stdout).toContain("| another session's worst wait while new sessions start ≤ 50 ms |")
  expect(stdout).toContain('| CPU efficiency, GET limit=20 ≥ 0.70 |')
  expect(stdout).toContain('| ≤ 300 bytes per stored pet |')
  expect(stdout).toMatch(
    /Conformance: a full run against our mock takes [\d,]+ ms, vitest running one trivial test file [\d,]+ ms \(medians\): \d+\.\d\d ×/,
  )
  expect(stdout).toContain('| full conformance run ≤ 1.5 × vitest on one trivial test file |')
  // As long as the run itself may take (execFile's timeout): two loaded cores stretch it past a minute.
}, 120_000)
