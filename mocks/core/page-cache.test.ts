import { expect, it } from 'vitest'
import { PageCache } from './page-cache.ts'

it('serves a page cached for the current version and forgets every page on the next one', () => {
  const cache = new PageCache(1024, 256)
  cache.set(1, 'a', '[1]')
  expect(cache.get(1, 'a')).toBe('[1]')
  expect(cache.get(2, 'a')).toBeUndefined()
  expect(cache.heldBytes).toBe(0)
})

it('never keeps a page larger than its per-page limit', () => {
  const cache = new PageCache(1024, 256)
  cache.get(1, 'x')
  cache.set(1, 'big', 'x'.repeat(129)) // 258 bytes at 2 per UTF-16 unit
  expect(cache.get(1, 'big')).toBeUndefined()
})

it('evicts the oldest pages to stay within its budget', () => {
  const cache = new PageCache(400, 400)
  cache.get(1, 'x')
  for (const key of ['a', 'b', 'c']) cache.set(1, key, key.repeat(100)) // 200 bytes each
  expect(cache.get(1, 'a')).toBeUndefined()
  expect(cache.get(1, 'b')).toBe('b'.repeat(100))
  expect(cache.get(1, 'c')).toBe('c'.repeat(100))
  expect(cache.heldBytes).toBe(400)
})
