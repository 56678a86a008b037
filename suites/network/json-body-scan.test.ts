import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { maxJsonDepth } from '../../contract/exact-json.ts'
import { JsonBodyScan } from './json-body-scan.ts'

/** The scan of `text` given in pieces of `sizes` bytes, the sizes taken in turn. */
function scannedInPieces(text: string, sizes: number[]): JsonBodyScan {
  const bytes = Buffer.from(text)
  const scan = new JsonBodyScan()
  for (let at = 0, piece = 0; at < bytes.length; piece++) {
    const size = sizes[piece % sizes.length] as number
    scan.add(bytes.subarray(at, at + size))
    at += size
  }
  return scan
}

const scanned = (...chunks: string[]) => {
  const scan = new JsonBodyScan()
  for (const chunk of chunks) scan.add(Buffer.from(chunk))
  return scan
}
const counted = (...chunks: string[]) => scanned(...chunks).values
const duplicateIn = (...chunks: string[]) => scanned(...chunks).duplicate

/** The text fed one byte at a time, as a server that flushes every byte sends it. */
const byteByByte = (text: string) => {
  const scan = new JsonBodyScan()
  for (const byte of Buffer.from(text)) scan.add(Uint8Array.of(byte))
  return scan
}

describe('counting the JSON values a body would parse to', () => {
  it('counts one, and one more for each comma outside strings', () => {
    expect(counted('[{},{},{}]')).toBe(3)
    expect(counted('{"id":1,"tags":["a","b"]}')).toBe(3)
    // Nesting without commas is bounded by the parser's depth limit, not here.
    expect(counted('[[[[[]]]]]')).toBe(1)
  })

  it('counts nothing inside strings, escaped quotes and backslashes included', () => {
    expect(counted('{"name":"a,b{c[d\\",e\\\\","x":1}')).toBe(2)
  })

  it('reads a string, an escape and a bracket cut across chunks as one text', () => {
    expect(counted('{"name":"a,b\\', '",c', '","x":[', '1,2]}')).toBe(
      counted('{"name":"a,b\\",c","x":[1,2]}'),
    )
  })

  it('reads runs of spaces of any length, before the body and between its values, in any pieces, as one space', () => {
    // Runs about the lengths where the scan starts skipping (64) and the blocks it skips (1,024), each
    // followed at once by what must still be read: a comma, a quote opening a name, a bracket.
    const runs = [63, 64, 65, 1_087, 1_088, 1_089, 2_112, 5_000]
    for (const length of runs) {
      const gap = ' '.repeat(length)
      const text = `${gap}[${gap}{"a":1,${gap}"b":[1,2]${gap},${gap}"a":"x,y"}${gap},{}]`
      const compact = '[{"a":1,"b":[1,2],"a":"x,y"},{}]'
      const want = scanned(compact)
      for (const size of [1, 7, 64, 1_000, 1_024, 4_096, text.length]) {
        const scan = new JsonBodyScan()
        const bytes = Buffer.from(text)
        for (let at = 0; at < bytes.length; at += size) scan.add(bytes.subarray(at, at + size))
        expect({ length, size, values: scan.values, duplicate: scan.duplicate }).toEqual({
          length,
          size,
          values: want.values,
          duplicate: want.duplicate,
        })
      }
    }
  })

  it('reads long string values to their end, across escapes, quotes and chunks, as it reads short ones', () => {
    // Values about the length where the scan starts searching for a string's end (64 plain bytes), with
    // what ends a string or hides its end placed around it: an escaped quote, a backslash, the closing quote.
    const lengths = [62, 63, 64, 65, 66, 127, 128, 129, 5_000]
    const traps = ['', '\\"', '\\\\', ',{[', 'é', '\\u0022']
    for (const length of lengths)
      for (const trap of traps) {
        const long = 'x'.repeat(length)
        const value = `${long}${trap}${long},"a":1`
        const text = `[{"a":"${value}","b":[1,2],"a":"${trap}${long}"},{"c":"${long}${trap}"}]`
        const want = { values: 5, duplicate: { name: 'a', at: '/0/a' } }
        for (const size of [1, 7, 64, 65, 1_000, text.length]) {
          const scan = new JsonBodyScan()
          const bytes = Buffer.from(text)
          for (let at = 0; at < bytes.length; at += size) scan.add(bytes.subarray(at, at + size))
          expect({ length, trap, size, values: scan.values, duplicate: scan.duplicate }).toEqual({
            length,
            trap,
            size,
            ...want,
          })
        }
      }
  })

  it('counts nothing in a body that does not start as an array or an object', () => {
    expect(counted('<html>{},{},{}</html>')).toBe(0)
    expect(counted('"a,b,c"')).toBe(0)
    expect(counted('  \r\n', '[1,2]')).toBe(2)
  })
})

describe('finding a member name given twice in one object', () => {
  it('finds the first name repeated, with where it is', () => {
    expect(duplicateIn('{"name":5,"name":"Rex"}')).toEqual({ name: 'name', at: '/name' })
    expect(duplicateIn('{"id":1,"name":"a","categoryId":2,"id":1}')).toEqual({ name: 'id', at: '/id' })
  })

  it('finds one deep in the body, the path naming each array index and member on the way', () => {
    expect(duplicateIn('[{"id":1},{"id":2,"links":{"self":[{}, {"href":"a","href":"b"}]}}]')).toEqual({
      name: 'href',
      at: '/1/links/self/1/href',
    })
  })

  it('compares names as the parser reads them, after unescaping', () => {
    expect(duplicateIn('{"a":1,"\\u0061":2}')).toEqual({ name: 'a', at: '/a' })
    expect(duplicateIn('{"\\"q\\"":1,"\\u0022q\\u0022":2}')?.name).toBe('"q"')
    expect(duplicateIn('{"é":1,"\\u00e9":2}')?.name).toBe('é')
    expect(duplicateIn('{"\\ud83d\\ude00":1,"😀":2}')?.name).toBe('😀')
    // Two different lone surrogates are two names.
    expect(duplicateIn('{"\\ud800":1,"\\udc00":2}')).toBeUndefined()
  })

  it('is not confused by strings that look like members, in names or values', () => {
    expect(duplicateIn('{"name":"\\"name\\":","x":"name"}')).toBeUndefined()
    expect(duplicateIn('{"a\\":":1,"a":2}')).toBeUndefined()
    expect(duplicateIn('{"note":"a\\\\","note2":"{\\"note\\":1}"}')).toBeUndefined()
    expect(duplicateIn('{"v":"\\\\","v":1}')).toEqual({ name: 'v', at: '/v' })
  })

  it('reads a name cut across chunks, down to one byte a chunk, as one name', () => {
    const text = '[{"id":1,"na\\u006de":"Zoë","categoryId":2},{"id":2,"name":"a","categoryId":3,"name":"b"}]'
    expect(byteByByte(text).duplicate).toEqual({ name: 'name', at: '/1/name' })
    expect(byteByByte(text).values).toBe(counted(text))
    expect(byteByByte('{"Zoë":1,"Zo\\u00eb":2}').duplicate?.name).toBe('Zoë')
    expect(duplicateIn('{"categ', 'oryId":1,"categoryI', 'd":2}')?.name).toBe('categoryId')
    expect(byteByByte('{"name":"\\"name\\":","x":"name"}').duplicate).toBeUndefined()
  })

  it('keeps the names of each object apart: items of a list with the same keys are no duplicate', () => {
    expect(duplicateIn('[{"id":1},{"id":2}]')).toBeUndefined()
    expect(
      duplicateIn('[{"id":1,"name":"a","status":"sold"},{"id":2,"name":"b","status":"sold"}]'),
    ).toBeUndefined()
  })

  it('takes the same name at different levels as no duplicate', () => {
    expect(duplicateIn('{"name":"a","owner":{"name":"b","pet":{"name":"c"}},"name2":1}')).toBeUndefined()
    expect(duplicateIn('{"a":{"a":{"a":1}}}')).toBeUndefined()
    // The outer object's names are still kept while an inner one is open.
    expect(duplicateIn('{"a":{"b":1},"a":2}')).toEqual({ name: 'a', at: '/a' })
  })

  it('reports the first duplicate only, and still counts the rest', () => {
    const scan = scanned('[{"a":1,"a":2},{"b":1,"b":2}]')
    expect(scan.duplicate).toEqual({ name: 'a', at: '/0/a' })
    expect(scan.values).toBe(4)
  })

  it('compares nothing nested deeper than the parser reads', () => {
    const open = '['.repeat(maxJsonDepth - 1)
    const close = ']'.repeat(maxJsonDepth - 1)
    // At the deepest level read, a duplicate is found; one level deeper, the parser refuses the body.
    expect(duplicateIn(`${open}{"a":1,"a":2}${close}`)?.name).toBe('a')
    expect(duplicateIn(`${open}[{"a":1,"a":2}]${close}`)).toBeUndefined()
    // Back at a level the parser reads, names are compared again.
    expect(duplicateIn(`{"x":${open}[{"a":1,"a":2}]${close},"x":1}`)?.name).toBe('x')
  })

  it('counts runs of brackets beyond the depth it reads in any pieces, and compares again once back', () => {
    // Nesting far past the depth, closed again: a run of openings and one of closings, each counted at
    // once, must leave the scan at the level it was, wherever the pieces cut the runs.
    const deep = (depth: number) => `${'['.repeat(depth)}${'{'.repeat(3)}${'}'.repeat(3)}${']'.repeat(depth)}`
    const body = `[${deep(3000)},{"x":[${deep(700)}],"a":1,"a":2}]`
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1 }), (sizes) => {
        const scan = scannedInPieces(body, sizes)
        expect(scan.duplicate).toEqual({ name: 'a', at: '/1/a' })
        expect(scan.values).toBe(4)
      }),
      { numRuns: 300 },
    )
  })

  it('compares no names in a body that is not JSON, nor names that are not UTF-8', () => {
    expect(duplicateIn('<p>{"a":1,"a":2}</p>')).toBeUndefined()
    const scan = new JsonBodyScan()
    scan.add(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x2c, 0x22, 0xfe, 0x22, 0x3a, 0x32, 0x7d]))
    expect(scan.duplicate).toBeUndefined()
  })

  it('clips a long name and its path for the report', () => {
    const long = 'n'.repeat(5000)
    const found = duplicateIn(`{"${long}":1,"${long}":2}`)
    expect(found?.name.length).toBeLessThan(200)
    expect(found?.at.length).toBeLessThan(300)
    expect(found?.name.startsWith('nnnn')).toBe(true)
  })

  it('escapes ~ and / in the path as a JSON pointer does', () => {
    expect(duplicateIn('{"a/b":{"~":1,"~":2}}')?.at).toBe('/a~1b/~0')
  })
})

/**
 * The first repeated name of a JSON text and its pointer, read by recursive descent over the whole text (the
 * way a parser reads it): what the streaming scan must find, whatever pieces the text comes in.
 */
function firstRepeat(text: string): { name: string; at: string } | undefined {
  let at = 0
  let found: { name: string; at: string } | undefined
  const space = () => {
    while (/\s/.test(text.charAt(at))) at++
  }
  const string = (): string => {
    const start = at++
    while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1
    at++
    return JSON.parse(text.slice(start, at))
  }
  const step = (name: string | number) => `/${String(name).replaceAll('~', '~0').replaceAll('/', '~1')}`
  const value = (path: string): void => {
    space()
    const opener = text[at]
    if (opener === '"') string()
    else if (opener === '{' || opener === '[') {
      at++
      const names = new Set<string>()
      for (let index = 0; ; index++) {
        space()
        if (text[at] === '}' || text[at] === ']') break
        if (opener === '{') {
          const name = string()
          if (names.has(name)) found ??= { name, at: `${path}${step(name)}` }
          names.add(name)
          space()
          at++
          value(`${path}${step(name)}`)
        } else value(`${path}${step(index)}`)
        space()
        if (text[at] === ',') at++
      }
      at++
    } else while (/[-0-9a-z.]/.test(text.charAt(at))) at++
  }
  value('')
  return found
}

describe('the scan against a reader of the whole text', () => {
  // Names that collide only once unescaped, and names holding what marks structure outside a string.
  const name = fc.constantFrom(
    'a',
    '\\u0061',
    'b',
    '\\"',
    '\\u0022',
    '\\\\',
    'é',
    '\\u00e9',
    '\\":',
    ',',
    '{',
    '/~',
  )
  const { body } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.constant('1'),
      name.map((text) => `"${text}"`),
      // Long enough that the scan searches for its end (past 64 plain bytes), escapes and all.
      fc
        .array(fc.oneof(name, fc.constant('x'.repeat(70))), { minLength: 2, maxLength: 12 })
        .map((parts) => `"${parts.join('')}"`),
      tie('array'),
      tie('object'),
    ),
    array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(' , ')}]`),
    object: fc
      .array(fc.tuple(name, tie('value')), { maxLength: 4 })
      .map((members) => `{ ${members.map(([key, value]) => `"${key}" :${value}`).join(',')}}`),
    body: fc.oneof(tie('array'), tie('object')),
  }))

  it('finds the same first repeated name and pointer, in any pieces down to one byte', () => {
    fc.assert(
      fc.property(
        body as fc.Arbitrary<string>,
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1 }),
        (text, sizes) => {
          const scan = scannedInPieces(text, sizes)
          expect(scan.duplicate).toEqual(firstRepeat(text))
          expect(scan.values).toBe(counted(text))
        },
      ),
      { numRuns: 2_000 },
    )
  })
})
