import { defineConfig } from 'vitest/config'
import { packageAliases } from './scripts/package-aliases.ts'

export default defineConfig({
  // The README's snippets import the package by name; here those names mean the sources.
  resolve: { alias: packageAliases },
  test: {
    include: ['{contract,mocks,suites,scripts}/**/*.test.{ts,tsx}'],
    // Tests that start Prism or open sockets wait on real processes; the contract's own are instant.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
