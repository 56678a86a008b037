import { describe, expect, it } from 'vitest'
import {
  closingQuote,
  int64View,
  maxJsonDepth,
  nestsDeeperThan,
  parseExactJson,
  stringifyExactJson,
} from './exact-json.ts'

describe('exact JSON keeps int64 values beyond 2^53 as their digits', () => {
  it('reads integers beyond 2^53 as bigints and everything else as JSON.parse does', () => {
    expect(parseExactJson('{"a":9223372036854775807,"b":-9223372036854775808,"c":12,"d":1.5}')).toEqual({
      a: 9223372036854775807n,
      b: -9223372036854775808n,
      c: 12,
      d: 1.5,
    })
    expect(parseExactJson('[9007199254740991, 9007199254740993]')).toEqual([
      9007199254740991,
      9007199254740993n,
    ])
  })

  it('leaves digits inside strings, fractions and exponents alone', () => {
    expect(
      parseExactJson('{"s":"9223372036854775807","t":"\\\\\\"12345678901234567","f":12345678901234567.5}'),
    ).toEqual({
      s: '9223372036854775807',
      t: '\\"12345678901234567',
      f: Number('12345678901234567.5'),
    })
    expect(parseExactJson('[1e19, 12345678901234567e2]')).toEqual([1e19, Number('12345678901234567e2')])
  })

  it('keeps an own "__proto__" key a key, as JSON.parse does', () => {
    const parsed = parseExactJson(
      '{"__proto__":9223372036854775807,"x":{"__proto__":{"polluted":9223372036854775806}}}',
    ) as Record<string, unknown>
    expect(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value).toBe(9223372036854775807n)
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('fails like JSON.parse on text that is not JSON, and lets the last duplicate key win', () => {
    expect(() => parseExactJson('{"a":9223372036854775807} x')).toThrow(SyntaxError)
    expect(() => parseExactJson('{"a":9223372036854775807')).toThrow(SyntaxError)
    expect(parseExactJson('{"a":9223372036854775807,"a":9223372036854775806}')).toEqual({
      a: 9223372036854775806n,
    })
  })

  it('refuses a text nested deeper than maxJsonDepth, counting no bracket inside a string', () => {
    const deep = `${'['.repeat(maxJsonDepth + 1)}${']'.repeat(maxJsonDepth + 1)}`
    expect(() => parseExactJson(deep)).toThrow(SyntaxError)
    const atLimit = `${'['.repeat(maxJsonDepth)}${']'.repeat(maxJsonDepth)}`
    expect(parseExactJson(atLimit)).toBeInstanceOf(Array)
    expect(nestsDeeperThan(`["${'['.repeat(1000)}", "\\"${'{'.repeat(1000)}"]`)).toBe(false)
    // Deep enough that walking the value recursively would overflow the stack.
    expect(() => parseExactJson(`${'{"a":'.repeat(200_000)}1${'}'.repeat(200_000)}`)).toThrow(
      /nested more than/,
    )
  })

  it('finds where a string ends, long or short, past escaped quotes and backslashes, as a reader of every character does', () => {
    // Lengths about where the search for the end starts (64 plain characters), and what hides or makes an end.
    const everyCharacter = (text: string, open: number) => {
      let at = open + 1
      while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1
      return Math.min(at, text.length)
    }
    for (const length of [0, 62, 63, 64, 65, 127, 128, 5_000])
      for (const trap of ['', '\\"', '\\\\', '\\\\\\"', '\\u0022', 'é,{['])
        for (const text of [
          `{"a":"${'x'.repeat(length)}${trap}${'y'.repeat(length)}","b":"${trap}"}`,
          `"${'x'.repeat(length)}${trap}`,
        ]) {
          const open = text.indexOf('"', text.startsWith('{') ? 4 : 0)
          expect({ length, trap, at: closingQuote(text, open) }).toEqual({
            length,
            trap,
            at: everyCharacter(text, open),
          })
        }
    // Many long strings in one text: each read once.
    const many = `[${Array(20)
      .fill(`"${'x'.repeat(100)}\\"${'y'.repeat(100)}"`)
      .join(',')}]`
    expect(parseExactJson(many)).toHaveLength(20)
  })

  it('writes bigints back as the same digits, and fails like JSON.stringify on anything else', () => {
    const text = '{"id":9223372036854775807,"name":"int64:x","list":[-9223372036854775808,1]}'
    expect(stringifyExactJson(parseExactJson(text))).toBe(text)
    expect(stringifyExactJson({ a: 1 }, 2)).toBe(JSON.stringify({ a: 1 }, null, 2))
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(() => stringifyExactJson(cyclic)).toThrow(TypeError)
  })

  it('shows Ajv a double on the same side of the int64 bounds', () => {
    expect(int64View({ a: 2n ** 63n - 1n })).toEqual({ a: 2 ** 63 - 1024 })
    expect(int64View([-(2n ** 63n), 2n ** 63n, -(2n ** 63n) - 1n])).toEqual([-(2 ** 63), 2 ** 64, -(2 ** 64)])
    const plain = { a: 1 }
    expect(int64View(plain)).toBe(plain)
  })
})
