// One pass over a body's bytes as they arrive: the JSON values it would make, and a member name given twice.
import { isUtf8 } from 'node:buffer'
import { maxJsonDepth, stringRunBeforeSearch } from '../../contract/exact-json.ts'
import { clip } from '../output/index.ts'

/** The first member name a body gives twice in one object, as `JsonBodyScan` found it. */
export interface DuplicateMember {
  /** The name, unescaped (`"\u0061"` is `a`), clipped for a report. */
  name: string
  /** Where the second one is, as a JSON pointer (RFC 6901) from the body's root, clipped: `/0/name`. */
  at: string
}

/**
 * An open array (its item's index) or object (the names it gave so far, made on its first, and the one
 * whose value is open).
 */
type Frame = { object: true; names: Set<string> | undefined; key: string } | { object: false; index: number }

// What a report shows of a server's member name, and of where it is.
const shownName = 100
const shownPath = 200

/**
 * One pass over a response body's bytes as they come in, for what must be known before it is parsed:
 *
 * - the JSON values it would parse to: one, and one more for each comma outside strings, once the body
 *   starts as an array or an object does (a scalar is one value, and any other text is not JSON).
 *   Containers without commas between them can only nest, which the parser refuses past 256 levels
 *   (contract/exact-json.ts), so the commas bound what parsing builds. JSON.parse turns each `{}` of a body
 *   into an object of some fifty bytes: a body of a million of them, under the byte cap, took the run past
 *   1.8 GB, where the bytes alone are 4 MB;
 * - the first member name an object gives twice (`{"name":5,"name":"Rex"}`). RFC 8259 §4 leaves such an
 *   object to the receiver: JSON.parse keeps the last value, other parsers the first, strict ones refuse
 *   it, so clients of one server read different pets. Names compare as the parser reads them (after
 *   unescaping). The names of an object are kept while it is open, and only at the depths the parser
 *   reads; nothing is kept once one name repeats.
 *
 * @example const scan = new JsonBodyScan(); scan.add(Buffer.from('[{"a":1,"a":"x,y"}]')); scan.values // 2; scan.duplicate // { name: 'a', at: '/0/a' }
 */
export class JsonBodyScan {
  values = 0
  /** The first name given twice in one object, once one is. */
  duplicate: DuplicateMember | undefined
  #started = false
  #json = false
  #inString = false
  #escaped = false
  /** Names are compared until the first one repeats. */
  #comparing = true
  /** The open arrays and objects, outermost first, down to the depth the parser reads. */
  #frames: Frame[] = []
  /** Containers open beyond `maxJsonDepth`: the parser refuses the body, so nothing in them is compared. */
  #beyond = 0
  /** The next string, if one comes, is a member name (after `{` or a comma in an object). */
  #nameNext = false
  /** The string being read is a member name. */
  #inName = false
  #nameEscaped = false
  /** The name being read has a byte beyond ASCII (it must then be checked as UTF-8). */
  #nameWide = false
  /** The bytes of a name cut by the end of a chunk, copied (a slice would pin the chunk). */
  #nameParts: Buffer[] = []

  add(chunk: Uint8Array): void {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    let at = 0
    if (!this.#started) {
      at = afterSpaceBlocks(bytes, at)
      while (at < bytes.length && isWhitespace(bytes[at] as number)) at++
      if (at === bytes.length) return
      this.#started = true
      this.#json = bytes[at] === 0x7b || bytes[at] === 0x5b
      if (this.#json) this.values = 1
    }
    if (!this.#json) return
    // Where the name being read starts in this chunk: a name cut by the last chunk goes on from its start.
    let nameFrom = 0
    // Held in locals while the loop runs (most bytes are inside strings): written back at its end.
    let inString = this.#inString
    let escaped = this.#escaped
    let spaces = 0
    // Plain bytes read one by one in the value string being read.
    let plain = 0
    for (; at < bytes.length; at++) {
      const byte = bytes[at] as number
      if (inString) {
        if (escaped) escaped = false
        else if (byte === 0x5c) {
          escaped = true
          this.#nameEscaped = true
          plain = 0
        } else if (byte === 0x22) {
          inString = false
          if (this.#inName) this.#nameRead(bytes, nameFrom, at)
        } else {
          if (byte > 0x7f) this.#nameWide = true
          // Past a few dozen plain bytes of a value (a name is read whole), up to its next quote or
          // backslash in one search.
          if (++plain === stringRunBeforeSearch && !this.#inName) at = nextStringStop(bytes, at + 1) - 1
        }
        continue
      }
      if (byte === 0x20) {
        // Past a few dozen spaces in a row, the rest of the run a block at a time.
        if (++spaces === spaceRun) at = afterSpaceBlocks(bytes, at + 1) - 1
        continue
      }
      spaces = 0
      switch (byte) {
        case 0x22:
          inString = true
          plain = 0
          if (this.#nameNext) {
            this.#nameNext = false
            this.#inName = true
            this.#nameEscaped = false
            this.#nameWide = false
            nameFrom = at + 1
          }
          break
        case 0x2c:
          this.values++
          if (this.#comparing && this.#beyond === 0) {
            const frame = this.#frames.at(-1)
            if (frame === undefined) break
            if (frame.object) this.#nameNext = true
            else frame.index++
          }
          break
        case 0x7b:
        case 0x5b:
          if (!this.#comparing) break
          this.#open(byte === 0x7b)
          // Past the depth the parser reads, an opening is only counted: a run of them (a hostile body
          // nests a million deep) is counted a block at a time, not byte by byte.
          if (this.#beyond > 0) {
            const end = runEnd(bytes, at + 1, byte)
            this.#beyond += end - (at + 1)
            at = end - 1
          }
          break
        case 0x7d:
        case 0x5d:
          if (!this.#comparing) break
          if (this.#beyond > 0) {
            // As many closings of a run as there are openings beyond the depth, at once.
            const end = Math.min(runEnd(bytes, at + 1, byte), at + this.#beyond)
            this.#beyond -= end - at
            at = end - 1
          } else this.#frames.pop()
          this.#nameNext = false
          break
      }
    }
    this.#inString = inString
    this.#escaped = escaped
    if (this.#inName) this.#nameParts.push(Buffer.from(bytes.subarray(nameFrom)))
  }

  /** An array or object opens: its names are kept while the parser would read it. */
  #open(object: boolean): void {
    if (this.#beyond > 0 || this.#frames.length >= maxJsonDepth) {
      this.#beyond++
      this.#nameNext = false
      return
    }
    this.#frames.push(object ? { object, names: undefined, key: '' } : { object, index: 0 })
    this.#nameNext = object
  }

  /** A member name read whole (it ends at `to` of `bytes`), compared with the others of its object. */
  #nameRead(bytes: Buffer, from: number, to: number): void {
    this.#inName = false
    let name: string | undefined
    // Most names are short ASCII in one chunk: read as they are, without a copy or a check.
    if (this.#nameParts.length === 0 && !this.#nameWide && !this.#nameEscaped)
      name = bytes.toString('latin1', from, to)
    else {
      const raw = Buffer.concat([...this.#nameParts, bytes.subarray(from, to)])
      this.#nameParts = []
      name = unescapedName(raw, this.#nameEscaped)
    }
    const frame = this.#frames.at(-1)
    if (name === undefined || frame === undefined || !frame.object) return
    frame.names ??= new Set()
    if (!frame.names.has(name)) {
      frame.names.add(name)
      frame.key = name
      return
    }
    const at = [...this.#frames.slice(0, -1).map((open) => (open.object ? open.key : open.index)), name]
      .map((step) => `/${String(step).replaceAll('~', '~0').replaceAll('/', '~1')}`)
      .join('')
    this.duplicate = { name: clip(name, shownName), at: clip(at, shownPath) }
    // One is enough to report: the rest of the body is only counted.
    this.#comparing = false
    this.#frames = []
  }
}

/** Where the next quote or backslash from `from` is in `bytes`, or its end: what a value string stops at. */
function nextStringStop(bytes: Buffer, from: number): number {
  const quote = bytes.indexOf(0x22, from)
  const end = quote === -1 ? bytes.length : quote
  // Looked for before the quote only: a chunk of many long strings is read once, not once for each.
  const backslash = bytes.subarray(from, end).indexOf(0x5c)
  return backslash === -1 ? end : from + backslash
}

/**
 * Spaces read one by one before the scan looks for a longer run; a block is what it then skips with one
 * compare. Megabytes of spaces are how a hostile or padded body fills itself up to the byte cap (an endless
 * body, a 50 MB one, a gzip bomb): read one byte at a time by this loop, they cost a run seconds of CPU.
 * Ordinary indentation never reaches the run, so the scan of other bodies does not change.
 */
const spaceRun = 64
const spaceBlock = Buffer.alloc(1024, 0x20)

/** Where the whole blocks of spaces starting at `at` end (`at` itself when the next block is not one). */
const afterSpaceBlocks = (bytes: Buffer, at: number) => afterBlocks(spaceBlock, bytes, at)

/** Where the whole copies of `block` starting at `at` end (`at` itself when the next is not one). */
function afterBlocks(block: Buffer, bytes: Buffer, at: number): number {
  let end = at
  while (
    end + block.length <= bytes.length &&
    bytes.compare(block, 0, block.length, end, end + block.length) === 0
  )
    end += block.length
  return end
}

const bracketBlocks = new Map([0x5b, 0x5d, 0x7b, 0x7d].map((byte) => [byte, Buffer.alloc(1024, byte)]))

/** Where the run of the bracket `byte` from `from` ends in `bytes`: whole blocks at once, then byte by byte. */
function runEnd(bytes: Buffer, from: number, byte: number): number {
  let end = afterBlocks(bracketBlocks.get(byte) as Buffer, bytes, from)
  while (end < bytes.length && bytes[end] === byte) end++
  return end
}

/** JSON's whitespace (RFC 8259 §2): what may come before a body's first value. */
function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09
}

/**
 * A member name as the parser reads it, or undefined when it is not one: bytes that are not UTF-8 (not
 * JSON, RFC 8259 §8.1, whatever a lenient decoder makes of them), or an escape JSON does not have (the
 * body does not parse). Such names are compared with none: two of them are no evidence of a repeat.
 */
function unescapedName(raw: Buffer, escaped: boolean): string | undefined {
  if (!isUtf8(raw)) return undefined
  const text = raw.toString('utf8')
  if (!escaped) return text
  try {
    const name: unknown = JSON.parse(`"${text}"`)
    return typeof name === 'string' ? name : undefined
  } catch {
    return undefined
  }
}
