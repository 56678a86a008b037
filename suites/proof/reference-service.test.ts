import { describe, expect, it } from 'vitest'
import { normaliseRfc3986 } from './reference-service.ts'

describe('RFC 3986 path normalisation of the reference servers', () => {
  it.each([
    ['/v1/%70ets', '/v1/pets'],
    ['/%761/pets', '/v1/pets'],
    ['/v1/./pets', '/v1/pets'],
    ['/v1/x/../pets', '/v1/pets'],
    ['/v1/%2e/pets', '/v1/pets'],
    ['/v1/pets/.', '/v1/pets/'],
    ['/../v1/pets', '/v1/pets'],
  ])('reads %s as %s (the same URI)', (raw, normal) => {
    expect(normaliseRfc3986(raw)).toBe(normal)
  })

  it.each([['/v1/pets%2F1'], ['/V1/PETS'], ['/v1//pets'], ['/v1/pets/']])(
    'leaves %s a different path',
    (raw) => {
      expect(normaliseRfc3986(raw)).not.toBe('/v1/pets')
    },
  )
})
