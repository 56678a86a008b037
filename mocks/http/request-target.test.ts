import { expect, it } from 'vitest'
import { readRequestTarget } from './request-target.ts'

it.each([
  ['/v1/pets?limit=5', { path: '/v1/pets', query: 'limit=5' }],
  ['/v1/pets', { path: '/v1/pets', query: '' }],
  [
    'http://127.0.0.1:4010/v1/pets?limit=5',
    { path: '/v1/pets', query: 'limit=5', authority: '127.0.0.1:4010' },
  ],
  ['HTTP://user@localhost/v1/pets', { path: '/v1/pets', query: '', authority: 'localhost' }],
  ['http://localhost:4010?limit=1', { path: '/', query: 'limit=1', authority: 'localhost:4010' }],
  ['*', { path: '*', query: '' }],
])('reads %s', (target, expected) => {
  expect(readRequestTarget(target)).toEqual(expected)
})
