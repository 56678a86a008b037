import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createMockApi, unhandledRequests } from 'animal-store-contract-kit/mocks'
import { setupMockServer } from 'animal-store-contract-kit/mocks/node'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'

// What MSW does with a request the mock does not answer, under whichever msw major is installed: the
// package tests copy this file into projects with msw 2 (Node 20) and msw 3 (Node 22, 24). The "network" is
// a real server on 127.0.0.1 that counts what reaches it, so an option MSW ignores cannot pass unnoticed.
let network: Server
let networkUrl: string
let reachedNetwork: string[] = []
beforeAll(async () => {
  network = createServer((request, response) => {
    reachedNetwork.push(request.url ?? '')
    response.end('from the network')
  })
  await new Promise<void>((resolve) => network.listen(0, '127.0.0.1', resolve))
  networkUrl = `http://127.0.0.1:${(network.address() as AddressInfo).port}`
})
afterEach(() => {
  reachedNetwork = []
  vi.restoreAllMocks()
})
afterAll(() => new Promise((resolve) => network.close(resolve)))

describe('setupMockServer().listen()', () => {
  const { server, listen } = setupMockServer({ apiKeys: ['test-key'], pets: 2 })
  beforeAll(() => listen())
  afterAll(() => server.close())

  it('fails an unmocked request instead of sending it to the network, and says so', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    await expect(fetch(`${networkUrl}/not-mocked`)).rejects.toThrow()
    expect(reachedNetwork).toEqual([])
    expect(logged.mock.calls.join('\n')).toContain(`${networkUrl}/not-mocked`)
  })

  it('still answers the API', async () => {
    const response = await fetch('https://api.example.test/v1/pets', {
      headers: { authorization: 'Bearer test-key' },
    })
    expect(await response.json()).toHaveLength(2)
  })
})

describe('your own setupServer with unhandledRequests(strategy)', () => {
  const server = setupServer(...createMockApi({ pets: 1 }).handlers)
  afterEach(() => server.close())

  it("fails an unmocked request with 'error'", async () => {
    server.listen(unhandledRequests('error'))
    vi.spyOn(console, 'error').mockImplementation(() => {})
    await expect(fetch(`${networkUrl}/not-mocked`)).rejects.toThrow()
    expect(reachedNetwork).toEqual([])
  })

  it("lets an unmocked request through, without a word, with 'bypass'", async () => {
    server.listen(unhandledRequests('bypass'))
    const warned = vi.spyOn(console, 'warn')
    const logged = vi.spyOn(console, 'error')
    expect(await (await fetch(`${networkUrl}/passed`)).text()).toBe('from the network')
    expect(reachedNetwork).toEqual(['/passed'])
    expect([...warned.mock.calls, ...logged.mock.calls]).toEqual([])
  })
})
