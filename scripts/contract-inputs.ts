// Reads the two documents the diff compares: a file, or a file at a git revision (git show, no shell).
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { contractPath } from '../contract/contract-path.ts'
import type { DiffInput } from '../contract/diff/index.ts'
import { asOpenApiDocument } from '../contract/openapi-document.ts'
import { UsageError } from './cli/usage-error.ts'

const run = promisify(execFile)

/** The path `--base-ref REV` reads, unless it says `REV:PATH`. */
export const defaultContractFile = 'contract/openapi.yaml'

/** Parses YAML (JSON is YAML too) into a 3.1 document; `yaml` is an optional peer of the package. */
async function parseDocument(text: string, source: string): Promise<DiffInput> {
  let parse: (text: string) => unknown
  try {
    ;({ parse } = await import('yaml'))
  } catch {
    throw new UsageError('reading a contract needs the "yaml" package: npm install --save-dev yaml')
  }
  let data: unknown
  try {
    data = parse(text)
  } catch (error) {
    throw new UsageError(
      `${source} is not valid YAML or JSON (${(error as Error).message.split('\n')[0]}). Fix it, or name another file.`,
    )
  }
  try {
    const document = asOpenApiDocument(data, source)
    return { document, source, version: String(document.info.version) }
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

/** A document from a file; HEAD defaults to the kit's own contract. */
export async function readDocumentFile(path: string | undefined, role: 'BASE' | 'HEAD'): Promise<DiffInput> {
  const file = path ?? contractPath
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message
    throw new UsageError(
      `cannot read ${role} ${file}: ${why}. Give the path of an OpenAPI 3.1 document${role === 'BASE' ? ', or --base-ref REV for the contract at a git revision' : ''}.`,
    )
  }
  return parseDocument(text, path ?? "the kit's contract (contract/openapi.yaml)")
}

/**
 * The document at a git revision: `git show REV:contract/openapi.yaml` (or `REV:PATH`) in `cwd`, run with
 * execFile so that no shell reads the revision.
 */
export async function readDocumentAtRevision(revision: string, cwd = process.cwd()): Promise<DiffInput> {
  if (revision.startsWith('-'))
    throw new UsageError(`--base-ref takes a git revision, not "${revision}": e.g. --base-ref origin/main.`)
  const object = revision.includes(':') ? revision : `${revision}:${defaultContractFile}`
  let text: string
  try {
    ;({ stdout: text } = await run('git', ['show', object], {
      cwd,
      maxBuffer: 64 * 1024 * 1024,
      encoding: 'utf8',
    }))
  } catch (error) {
    const failure = error as { code?: unknown; stderr?: string }
    const said =
      failure.code === 'ENOENT'
        ? 'git is not installed'
        : (failure.stderr ?? '').trim().split('\n')[0]?.replace(/\.$/, '')
    throw new UsageError(
      `cannot read BASE with "git show ${object}": ${said || 'git failed'}. Check the revision exists here (git fetch origin, git log ${revision.split(':')[0]}), or give BASE as a file.`,
    )
  }
  return parseDocument(text, `git show ${object}`)
}
