import { defineConfig } from 'vitest/config'
import { packageAliases } from './scripts/package-aliases.ts'

export default defineConfig({
  // The README's snippets import the package by name; here those names mean the sources.
  resolve: { alias: packageAliases },
  test: {
    include: ['contract/**/*.test.ts', 'mocks/**/*.test.ts', 'suites/**/*.test.ts', 'scripts/**/*.test.ts'],
    // Tests that start Prism or open sockets wait on real processes; the contract's own are instant.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
