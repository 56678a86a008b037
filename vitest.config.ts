import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { packageAliases } from './mocks/proof/package-aliases.ts'

const roots = '{contract,mocks,suites,scripts}/**'

/**
 * One project per kind of test, told apart by the file name: `npm run test:unit` runs only the tests
 * that need no child process, listening mock or browser (the edit-test loop), `npm test` runs them all.
 * Each project extends this file, so the aliases and timeouts hold in every one.
 */
const kinds = ['process', 'socket', 'browser'] as const

export default defineConfig({
  // The docs' snippets import the package by name; here those names mean the sources.
  resolve: { alias: packageAliases },
  test: {
    // Tests that start Prism or open sockets wait on real processes; the contract's own are instant.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two test files at a time on two cores: vitest's default for a run is one fewer worker than cores, so
    // on two it ran the files one after another, though the process proofs spend most of their time
    // waiting on sockets and children. Where there are more cores, one worker per core.
    maxWorkers: Math.max(2, availableParallelism()),
    // A worker runs one test file after another in one module graph, instead of a fresh process and graph
    // per file: on two cores, `--project unit` took 52 s of CPU isolated and 30 s not, the socket proofs
    // 30 s and 23 s. The test files leave nothing behind that another could meet: each closes what it
    // starts, restores the mocks and timers it stubs, and none changes a module's state for good.
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [`${roots}/*.test.{ts,tsx}`],
          exclude: ['**/node_modules/**', ...kinds.map((kind) => `**/*.${kind}.test.{ts,tsx}`)],
        },
      },
      ...kinds.map((kind) => ({
        extends: true as const,
        test: {
          name: kind,
          include: [`${roots}/*.${kind}.test.{ts,tsx}`],
          exclude: ['**/node_modules/**'],
        },
      })),
    ],
  },
})
