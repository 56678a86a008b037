#!/usr/bin/env node
// `npm run lint:contract`: Redocly CLI's lint of contract/openapi.yaml with its output passed through,
// except one box. Redocly CLI 2.x prints a large "Node.js 20 support is ending" banner on every run under
// Node 20, which this kit supports (engines >=20.19), and it has no option to turn it off. The banner is
// the lines from its ╔ to its ╚; everything else (every problem, the summary) and the exit status are
// Redocly's own. Plain JavaScript: a loader would only add start-up time.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const help = `Usage: npm run lint:contract

Lints contract/openapi.yaml with Redocly CLI (recommended-strict rules, contract/redocly.yaml; deliberate
exceptions in contract/.redocly.lint-ignore.yaml). Exit status 0 when it passes, 1 when it finds problems.
Redocly's Node 20 end-of-life banner is left out; all other output is Redocly's.`

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(help)
  process.exit(0)
}

const cli = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js')
const child = spawn(
  process.execPath,
  [cli, 'lint', 'contract/openapi.yaml', '--config', 'contract/redocly.yaml'],
  { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, REDOCLY_TELEMETRY: 'off' } },
)

/** Copies `input` to `output` line by line, without the lines from one holding ╔ to the next holding ╚. */
function copyWithoutBanner(input, output) {
  let inBanner = false
  let justAfterBanner = false
  let pending = ''
  const copy = (line) => {
    if (!inBanner && line.includes('╔')) inBanner = true
    if (inBanner) {
      if (line.includes('╚')) [inBanner, justAfterBanner] = [false, true]
      return
    }
    // The blank line Redocly prints after its box goes with it.
    const skip = justAfterBanner && line.trim() === ''
    justAfterBanner = false
    if (!skip) output.write(`${line}\n`)
  }
  input.on('data', (chunk) => {
    const lines = (pending + chunk).split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) copy(line)
  })
  input.on('end', () => {
    if (pending && !inBanner) output.write(pending)
  })
}

copyWithoutBanner(child.stdout, process.stdout)
copyWithoutBanner(child.stderr, process.stderr)
// 'close', not 'exit': it comes after both streams ended, so no output is lost.
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
