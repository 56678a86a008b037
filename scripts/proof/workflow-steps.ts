// Test helpers for the pipeline recipes: a step's shell script run as a CI runner runs it, with fakes on PATH.
import { execFile } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { scratchDir } from '../../suites/proof/scratch-dir.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
/** The recipes' folder of files a pipeline reads from the repository's root. */
export const recipeFiles = join(root, 'docs/github-actions')

export interface StepRun {
  code: number
  output: string
  outputs: Record<string, string>
  summary: string
  cwd: string
}

/**
 * A folder of executables to put first on PATH: `animal-store-conformance` run from this repository
 * (what `npm ci` puts in node_modules/.bin), and any fakes given as shell scripts by name.
 */
export function binFolder(fakes: Record<string, string> = {}): string {
  const folder = scratchDir('workflow-bin-')
  const scripts = {
    'animal-store-conformance': `#!/bin/sh\nexec "${process.execPath}" "${root}scripts/launch.mjs" "${root}scripts/conformance.ts" "$@"\n`,
    'animal-store-contract': `#!/bin/sh\nexec "${process.execPath}" "${root}scripts/launch.mjs" "${root}scripts/contract.ts" "$@"\n`,
    ...fakes,
  }
  for (const [name, text] of Object.entries(scripts)) {
    writeFileSync(join(folder, name), text)
    chmodSync(join(folder, name), 0o755)
  }
  return folder
}

/**
 * Runs a step's script as GitHub Actions and GitLab's runner do (bash -eo pipefail), with its env, the
 * GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, and `bin` first on PATH.
 */
export function runStep(
  script: string,
  env: Record<string, string>,
  cwd: string,
  bin: string,
): Promise<StepRun> {
  const outputFile = join(cwd, 'github-output')
  const summaryFile = join(cwd, 'github-step-summary')
  for (const file of [outputFile, summaryFile]) if (!existsSync(file)) writeFileSync(file, '')
  return new Promise((resolve) =>
    execFile(
      'bash',
      ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script],
      {
        cwd,
        timeout: 180_000,
        env: {
          PATH: `${bin}:${process.env.PATH}`,
          HOME: process.env.HOME ?? tmpdir(),
          GITHUB_OUTPUT: outputFile,
          GITHUB_STEP_SUMMARY: summaryFile,
          ...env,
        },
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number(error.code ?? 1) : 0,
          output: stdout + stderr,
          outputs: Object.fromEntries(
            readFileSync(outputFile, 'utf8')
              .split('\n')
              .filter(Boolean)
              .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
          ),
          summary: readFileSync(summaryFile, 'utf8'),
          cwd,
        }),
    ),
  )
}

/** A fresh workspace holding what the pipeline reads from the repository's root. */
export function workspace(): string {
  const cwd = scratchDir('workflow-')
  for (const file of ['animal-store.config.yaml', 'conformance-baseline.json'])
    copyFileSync(join(recipeFiles, file), join(cwd, file))
  return cwd
}

/** Runs the validator the workflows are checked with (@action-validator/cli) on one file. */
export function validateWorkflow(path: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [join(root, 'node_modules/@action-validator/cli/cli.mjs'), path],
      { timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    ),
  )
}
