import { expect, it } from 'vitest'
import { splitUrl } from './http-message.ts'

// splitUrl keeps each origin it parsed: a URL must still get its own origin, whatever came before it.
it('gives each URL its own origin and its path as written, however many came before', () => {
  const urls = [
    ['http://127.0.0.1:4010/v1/pets/./1', 'http://127.0.0.1:4010', '/v1/pets/./1'],
    ['http://127.0.0.1:4011/v1/pets/%2e%2e/1', 'http://127.0.0.1:4011', '/v1/pets/%2e%2e/1'],
    ['https://user:pass@staging.example/v1/pets?limit=1', 'https://staging.example', '/v1/pets?limit=1'],
    ['https://staging.example:8443/v1', 'https://staging.example:8443', '/v1'],
    ['http://[::1]:4010/v1/pets', 'http://[::1]:4010', '/v1/pets'],
    ['HTTP://Staging.Example:80/v1/pets', 'http://staging.example', '/v1/pets'],
    ['http://staging.example', 'http://staging.example', '/'],
  ]
  for (const round of [1, 2])
    for (const [url, origin, rawPath] of urls) {
      const split = splitUrl(url as string)
      expect([split.target.origin, split.rawPath], `${url} (round ${round})`).toEqual([origin, rawPath])
    }
})
