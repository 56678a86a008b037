import { describe, expect, it } from 'vitest'
import { normalizePath } from './normalize-path.ts'

describe('normalizePath compares paths as RFC 3986 §6.2.2 does', () => {
  it.each([
    ['/%761/pets', '/v1/pets'],
    ['/v1/%70ets/%31', '/v1/pets/1'],
    ['/v1/./pets', '/v1/pets'],
    ['/v1/x/../pets', '/v1/pets'],
    ['/v1/%2e/pets', '/v1/pets'],
    ['/v1/pets/.', '/v1/pets/'],
  ])('reads %s as %s', (given, want) => {
    expect(normalizePath(given)).toBe(want)
  })

  it('leaves reserved escapes and plain paths alone', () => {
    expect(normalizePath('/v1/pets%2F1')).toBe('/v1/pets%2F1')
    expect(normalizePath('/v1/pets')).toBe('/v1/pets')
  })
})
