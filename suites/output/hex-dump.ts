// Finds a secret spread over the lines of a hex dump, in its hex and its text column, for the redactor.
import { decodeText, originalRange } from './decoded-text.ts'

/**
 * A line of a hex dump, as `hexdump -C`, `xxd` and `od -A x -t x1z` write them: an offset, the bytes in
 * hexadecimal (one or two per group, 16 a line), then, often, the same bytes as text, `.` for the
 * unprintable. A request dump in this layout shows a long stretch of a key in its text column, a line at a
 * time, where no search of the whole text finds it.
 */
const dumpLine = /^([ \t]*[0-9a-f]{4,16}:?)((?:[ \t]{1,2}(?:[0-9a-f]{2}){1,2}){1,16})(.*)$/gim

interface DumpLine {
  /** Where each of the line's bytes is written in hexadecimal, in the text: [start, end). */
  hex: [number, number][]
  /** Where the line's text column starts in the text, if it has one as long as its bytes. */
  column: number | undefined
}

/**
 * Where the bytes of a dump (consecutive dump lines) that spell a secret are written, in hexadecimal and in
 * the text column: the bytes of the dump are read in a row, as the redactor reads any text (escapes undone,
 * letters in any case), and each secret found is traced back to every line it spans.
 */
export function hexDumpRanges(
  text: string,
  found: (decoded: string) => [number, number][],
): [number, number][] {
  const ranges: [number, number][] = []
  let dump: DumpLine[] = []
  let bytes: number[] = []
  let lastEnd = -1
  const flush = () => {
    if (bytes.length >= 4) for (const range of secretBytes(dump, bytes, found)) ranges.push(range)
    dump = []
    bytes = []
  }
  for (const match of text.matchAll(dumpLine)) {
    // Lines of a dump follow one another; anything between two of them ends it.
    if (match.index !== lastEnd + 1) flush()
    lastEnd = match.index + match[0].length
    const groupsAt = match.index + (match[1] as string).length
    const hex: [number, number][] = []
    for (const group of (match[2] as string).matchAll(/[0-9a-f]{2,4}/gi))
      for (let at = 0; at < group[0].length; at += 2) {
        const start = groupsAt + group.index + at
        hex.push([start, start + 2])
        bytes.push(Number.parseInt(group[0].slice(at, at + 2), 16))
      }
    const rest = match[3] as string
    const lead = /^[ \t]*[|>]?/.exec(rest)?.[0].length ?? 0
    const column =
      rest.length - lead >= hex.length ? groupsAt + (match[2] as string).length + lead : undefined
    dump.push({ hex, column })
  }
  flush()
  return ranges
}

function secretBytes(
  dump: DumpLine[],
  bytes: number[],
  found: (decoded: string) => [number, number][],
): [number, number][] {
  const decoded = decodeText(Buffer.from(bytes).toString('latin1'))
  // Where each line's bytes start among the dump's: a secret is traced to the lines it spans only, found
  // by a binary search (a dump of a key repeated holds a secret on every line).
  const starts: number[] = []
  let count = 0
  for (const line of dump) {
    starts.push(count)
    count += line.hex.length
  }
  const ranges: [number, number][] = []
  for (const [start, end] of found(decoded.text)) {
    const [first, last] = originalRange(decoded, start, end)
    for (let index = lineOf(starts, first); index < dump.length; index++) {
      const line = dump[index] as DumpLine
      const lineStart = starts[index] as number
      if (lineStart >= last) break
      const from = Math.max(first, lineStart)
      const to = Math.min(last, lineStart + line.hex.length)
      if (from >= to) continue
      ranges.push([
        (line.hex[from - lineStart] as [number, number])[0],
        (line.hex[to - lineStart - 1] as [number, number])[1],
      ])
      if (line.column !== undefined)
        ranges.push([line.column + from - lineStart, line.column + to - lineStart])
    }
  }
  return ranges
}

/** The last line whose first byte is at or before byte `index` (`starts` ascending, the first 0). */
function lineOf(starts: number[], index: number): number {
  let low = 0
  let high = starts.length - 1
  while (low < high) {
    const middle = (low + high + 1) >> 1
    if ((starts[middle] as number) <= index) low = middle
    else high = middle - 1
  }
  return low
}
