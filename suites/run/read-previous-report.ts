// Reads the --previous report from disk under a size bound: missing is a first run, unreadable stops the run.
import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { type MissingPreviousRun, type PreviousRun, parsePreviousReport } from '../reporting/index.ts'

/** A run's conformance.json is about 1 MB at most; a file 16 times that is not one, and is not read. */
export const maxPreviousReportBytes = 16 * 1024 * 1024

/**
 * The previous run's report, `{ missing: true }` when there is no file at `path` (the first run of a
 * pipeline, whose previous artefact does not exist yet: a note in the reports, not a failure), or a
 * sentence saying why it cannot be used (the run exits 2 before any request).
 */
export function readPreviousReport(path: string): PreviousRun | MissingPreviousRun | string {
  const cannot = (why: string) =>
    `Cannot use the previous report ${path}: ${why} Give --previous an earlier run's conformance.json, or leave it out.`
  let size: number
  try {
    const stat = statSync(path)
    // A FIFO or a device would block the read or never end it.
    if (!stat.isFile()) return cannot('it is not a file.')
    size = stat.size
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return { path, missing: true }
    return cannot(`it cannot be read (${code}).`)
  }
  if (size > maxPreviousReportBytes)
    return cannot(
      `it holds ${size} bytes, more than a report of this kit reaches (${maxPreviousReportBytes}).`,
    )
  let bytes: Buffer
  try {
    bytes = readBounded(path, maxPreviousReportBytes)
  } catch (error) {
    return cannot(`it cannot be read (${(error as NodeJS.ErrnoException).code}).`)
  }
  if (bytes.length > maxPreviousReportBytes)
    return cannot(`it grew past ${maxPreviousReportBytes} bytes while it was read.`)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return cannot('it is not UTF-8 text.')
  }
  const parsed = parsePreviousReport(text, path)
  return parsed.ok ? parsed.previous : `The previous report cannot be used: ${parsed.problem}`
}

/** At most `max` + 1 bytes of the file: one more than allowed says it is too large, whatever stat said. */
function readBounded(path: string, max: number): Buffer {
  const fd = openSync(path, 'r')
  try {
    const buffer = Buffer.alloc(Math.min(max + 1, 1024 * 1024))
    const chunks: Buffer[] = []
    let total = 0
    while (total <= max) {
      const read = readSync(fd, buffer, 0, Math.min(buffer.length, max + 1 - total), null)
      if (read === 0) break
      chunks.push(Buffer.from(buffer.subarray(0, read)))
      total += read
    }
    return Buffer.concat(chunks, total)
  } finally {
    closeSync(fd)
  }
}
