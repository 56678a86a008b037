import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import { packageAliases } from '../proof/package-aliases.ts'
import { mockGuard } from '../vite-plugin.ts'

// The example app's dev server. Dependencies are pre-bundled up front so the first page load does not
// trigger Vite's "new dependencies optimized" reload. A production build leaves the public folder (MSW's
// worker script) out, and mockGuard fails it if any part of the mock got in anyway.
export default defineConfig(({ mode }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  publicDir: mode === 'production' ? false : 'public',
  plugins: [mockGuard()],
  clearScreen: false,
  // The app imports the package by name, as a frontend team would; here the names mean the sources.
  resolve: { alias: packageAliases },
  optimizeDeps: {
    include: ['msw', 'msw/browser', '@faker-js/faker/locale/en', 'ajv/dist/2020.js', 'ajv-formats'],
  },
  build: { target: 'es2022' },
  esbuild: { target: 'es2022' },
}))
