import { expect, it, vi } from 'vitest'

// As in a project that installed @playwright/test but not @msw/playwright (the HTTP-mock path needs none).
vi.mock('@msw/playwright', () => {
  throw new Error("Cannot find package '@msw/playwright'")
})

it('loads animal-store-contract-kit/playwright, httpMockTest and the Chromium finder included, without @msw/playwright', async () => {
  // The stand-in really is missing: loading it fails.
  await expect(import('@msw/playwright')).rejects.toThrow()
  const face = await import('./playwright.ts')
  expect(typeof face.httpMockTest).toBe('function')
  expect(typeof face.httpMockTest.beforeEach).toBe('function')
  expect(typeof face.findChromium).toBe('function')
  expect(face.mockSessionName(2, 'a1')).toBe('run-a1-worker-2')
})
