import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['contract/**/*.test.ts', 'mocks/**/*.test.ts', 'suites/**/*.test.ts', 'scripts/**/*.test.ts'],
    // Tests that start Prism or open sockets wait on real processes; the contract's own are instant.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
