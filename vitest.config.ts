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
        test: { name: kind, include: [`${roots}/*.${kind}.test.{ts,tsx}`] },
      })),
    ],
  },
})
