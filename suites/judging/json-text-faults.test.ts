import { describe, expect, it } from 'vitest'
import { jsonTextFault } from './json-text-faults.ts'

describe('jsonTextFault', () => {
  it('names a byte-order mark before the JSON, whatever the operation', () => {
    expect(jsonTextFault('\uFEFF[{"id":1}]')?.where).toBe('response bodies start with a byte-order mark')
    expect(jsonTextFault('\uFEFF{"code":"x"}')?.where).toBe('response bodies start with a byte-order mark')
  })

  it('names the anti-XSSI prefixes Gerrit, AngularJS and Google write', () => {
    for (const prefix of [")]}'\n", 'while(1);', 'for(;;);'])
      expect(jsonTextFault(`${prefix}{"id":1}`)?.where).toBe('response bodies start with an anti-XSSI prefix')
  })

  it('names nesting too deep to read, so that such a body is judged, not a crash of the suite', () => {
    expect(jsonTextFault(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)?.where).toBe(
      'response bodies nest deeper than 256 levels',
    )
  })

  it('names no cause for other text, which is reported per operation as before', () => {
    expect(jsonTextFault('<h1>Internal Server Error</h1>')).toBeUndefined()
    expect(jsonTextFault('{"id":')).toBeUndefined()
  })
})
