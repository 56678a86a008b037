import { afterAll, beforeAll, expect, it } from 'vitest'
import { type MockProcess, startMockProcess } from '../proof/start-mock-process.ts'

// `npm start -- --date 2030-12-05`: the HTTP mock as of getPet's sunset, and back with a reset.
let mock: MockProcess
beforeAll(async () => {
  mock = await startMockProcess(['--api-key', 'date-key', '--date', '2030-12-05'])
})
afterAll(async () => {
  expect(await mock.stop()).toBe(0)
})

it('answers getPet 410 operation_removed past its sunset, and as today once a reset moves the day back', async () => {
  const getPet = () => fetch(`${mock.baseUrl}/pets/1`, { headers: { authorization: 'Bearer date-key' } })
  const removed = await getPet()
  expect([removed.status, (await removed.json()).code]).toEqual([410, 'operation_removed'])
  const reset = await fetch(`${mock.origin}/__mock/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ date: '2030-12-04' }),
  })
  expect(reset.status).toBe(200)
  const served = await getPet()
  expect([served.status, served.headers.get('sunset')]).toEqual([200, 'Thu, 05 Dec 2030 00:00:00 GMT'])
})
