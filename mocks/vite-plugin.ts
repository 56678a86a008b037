// The production guard as a Vite plugin: `animal-store-contract-kit/mocks/vite`.
import { resolve } from 'node:path'
import { checkBundle, describeFindings } from './check-bundle.ts'

/**
 * The few parts of Vite's Plugin type this plugin uses, written out so that importing it needs no `vite`
 * types (any Vite from 5 on accepts it).
 */
export interface MockGuardPlugin {
  name: string
  apply: 'build'
  enforce: 'post'
  configResolved(config: { mode: string; root: string; build: { outDir: string } }): void
  closeBundle(): void
}

export interface MockGuardOptions {
  /** The modes checked (default `['production']`): a staging build with the mock on purpose can be left out. */
  modes?: string[]
}

/**
 * Fails `vite build` in production mode when the output ships the mock: MSW's `mockServiceWorker.js`, a
 * chunk holding the mock's handlers, or the mock's default API key. The same check as
 * `animal-store-mock check-bundle dist`.
 * @example
 * // vite.config.ts
 * import { mockGuard } from 'animal-store-contract-kit/mocks/vite'
 * export default defineConfig({ plugins: [mockGuard()] })
 */
export function mockGuard(options: MockGuardOptions = {}): MockGuardPlugin {
  const modes = options.modes ?? ['production']
  let outDir: string | undefined
  return {
    name: 'animal-store-mock-guard',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = modes.includes(config.mode) ? resolve(config.root, config.build.outDir) : undefined
    },
    // After every file is written, the public folder's copies included.
    closeBundle() {
      if (outDir === undefined) return
      const { findings } = checkBundle(outDir)
      if (findings.length > 0) throw new Error(describeFindings(outDir, findings))
    },
  }
}
