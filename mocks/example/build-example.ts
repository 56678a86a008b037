// Builds the example app with Vite, for the production-build guard's tests.
import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

// vite's package.json exports no bin path; its folder does hold one.
const viteBin = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js')

export interface BuildOutcome {
  /** vite's exit code: 0 built, 1 failed (mockGuard's refusal included). */
  code: number
  output: string
}

/**
 * Runs `vite build --mode <mode>` on the example app (its own vite.config.ts, mockGuard included) into
 * `outDir`, as its own process: Vite decides what `import.meta.env.DEV` means from NODE_ENV, which a test
 * runner sets to "test", so only a clean environment builds what a team deploys.
 */
export function buildExample(
  outDir: string,
  mode: 'production' | 'development',
  extraEnv: Record<string, string> = {},
): Promise<BuildOutcome> {
  const root = fileURLToPath(new URL('.', import.meta.url))
  const { NODE_ENV: _, VITEST: __, ...env } = process.env
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [viteBin, 'build', root, '--mode', mode, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
      { env: { ...env, NO_COLOR: '1', ...extraEnv }, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0
        resolve({ code, output: `${stdout}${stderr}` })
      },
    )
  })
}
