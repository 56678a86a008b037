#!/usr/bin/env node
// `animal-store-contract` (`npm run contract`): `diff BASE [HEAD]` classifies every change between two contracts.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { diffContracts } from '../contract/diff/index.ts'
import { readPactFiles } from '../mocks/pact-file.ts'
import { helpText, parseCommand } from './cli/command-options.ts'
import { UsageError } from './cli/usage-error.ts'
import { diffJson, diffMarkdown } from './contract-diff-formats.ts'
import { readDocumentAtRevision, readDocumentFile } from './contract-inputs.ts'
import { contractCommand } from './contract-options.ts'
import { runCommand } from './run-command.ts'

const help = helpText(contractCommand)

async function readChangelog(path: string | undefined) {
  if (path === undefined) return undefined
  try {
    return { path, text: await readFile(path, 'utf8') }
  } catch (error) {
    throw new UsageError(
      `cannot read --changelog ${path}: ${(error as Error).message}. Name the changelog file.`,
    )
  }
}

/** The --pact files, read as the conformance gate reads them; an unusable one is a usage error. */
function readRecordings(paths: string[]) {
  const read = readPactFiles(paths)
  if ('problem' in read)
    throw new UsageError(`${read.problem} Give Pact files the mock recorded (docs/pact.md).`)
  return read.pacts
}

async function writeReport(path: string | undefined, text: string, option: string): Promise<void> {
  if (path === undefined) return
  try {
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, text)
  } catch (error) {
    throw new UsageError(`cannot write ${option} ${path}: ${(error as Error).message}. Name a writable file.`)
  }
}

await runCommand(help, async (argv) => {
  const { values, positionals } = parseCommand(contractCommand, argv)
  if (values.help) return 'help'
  const [verb, ...files] = positionals
  if (verb !== 'diff')
    throw new UsageError(
      verb === undefined
        ? 'name what to do: "diff BASE [HEAD]" compares two contracts.'
        : `unknown command "${verb}": the one command is "diff BASE [HEAD]".`,
    )
  const baseRef = values['base-ref']
  const most = baseRef === undefined ? 2 : 1
  if (files.length > most || (baseRef === undefined && files.length === 0))
    throw new UsageError(
      baseRef === undefined
        ? `diff takes BASE and, optionally, HEAD (two files at most); got ${files.length}. Or take BASE from git with --base-ref REV.`
        : `with --base-ref, diff takes only HEAD (a file, optional); got ${files.length}.`,
    )
  const base =
    baseRef === undefined ? await readDocumentFile(files[0], 'BASE') : await readDocumentAtRevision(baseRef)
  const head = await readDocumentFile(baseRef === undefined ? files[1] : files[0], 'HEAD')
  const diff = diffContracts(base, head, {
    failOn: values['fail-on'],
    date: values.date ?? new Date().toISOString().slice(0, 10),
    changelog: await readChangelog(values.changelog),
    ...(values.pact.length > 0 ? { recordings: readRecordings(values.pact) } : {}),
  })
  const [markdown, json] = [diffMarkdown(diff), diffJson(diff)]
  await writeReport(values.markdown, markdown, '--markdown')
  await writeReport(values.json, json, '--json')
  process.stdout.write(values.format === 'json' ? json : markdown)
  process.exitCode = diff.verdict.exitCode
  return undefined
})
