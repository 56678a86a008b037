import { describe, expect, it } from 'vitest'
import { JsonValueCount } from './json-value-count.ts'

const counted = (...chunks: string[]) => {
  const count = new JsonValueCount()
  for (const chunk of chunks) count.add(Buffer.from(chunk))
  return count.values
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

  it('counts nothing in a body that does not start as an array or an object', () => {
    expect(counted('<html>{},{},{}</html>')).toBe(0)
    expect(counted('"a,b,c"')).toBe(0)
    expect(counted('  \r\n', '[1,2]')).toBe(2)
  })
})
