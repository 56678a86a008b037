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
/**
 * Process proofs whose figures the load beside them could sway: the memory proofs that stream megabytes to
 * the command under deadlines (one of them 65,536 one-byte chunks). They run after everything else, alone.
 * The bench's smoke run is not one: it asserts the shape of its tables, never a figure, and runs beside
 * the other process proofs, where alone at the end it left a core idle for its half a minute.
 */
const alone = ['suites/network/bounded-memory.process.test.ts']

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
          exclude: ['**/node_modules/**', ...alone],
        },
      })),
      // One worker: vitest runs a project of one worker by itself, after the others have finished. One proof
      // at a time: two at once on two cores (30 s less) took the nearly-full stalling bodies' proof to 261 MB
      // of its 250 in a clean-clone run, where it measures 237–252 MB alone.
      {
        extends: true,
        test: { name: 'process-alone', include: alone, fileParallelism: false, maxConcurrency: 1 },
      },
    ],
  },
})
