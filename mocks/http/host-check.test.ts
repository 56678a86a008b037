import { expect, it } from 'vitest'
import { createHostCheck } from './host-check.ts'

const check = createHostCheck({ host: '127.0.0.1', allowedHosts: ['dev.example.test', '.mock.test'] })

it.each([
  'localhost',
  'LOCALHOST:4010',
  'app.localhost:4010',
  '127.0.0.1:4010',
  '10.0.0.7',
  '[::1]:4010',
  'dev.example.test:4010',
  'mock.test',
  'a.b.mock.test:80',
  'localhost.',
])('answers Host %s', (host) => {
  expect(check(host)).toBe(true)
})

it.each([
  'evil.example',
  'localhost.evil.example',
  'example.test',
  'notmock.test',
  'mock.test.evil.example',
  '',
])('refuses Host %j', (host) => {
  expect(check(host)).toBe(false)
})

it('allows the name the server was told to bind', () => {
  expect(createHostCheck({ host: 'my-laptop.lan' })('my-laptop.lan:4010')).toBe(true)
})
