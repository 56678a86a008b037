import { expect, it } from 'vitest'
import { findChromium } from './find-chromium.ts'

it('uses CHROMIUM_PATH when it is set and the file exists', async () => {
  const chosen = process.execPath // any existing executable stands in for a browser here
  const found = await findChromium({ CHROMIUM_PATH: chosen })
  expect(found.executablePath).toBe(chosen)
  expect(found.source).toBe(`CHROMIUM_PATH (${chosen})`)
  expect(found.args).toContain('--no-sandbox')
})

it('says what to do when CHROMIUM_PATH points at nothing, instead of falling back silently', async () => {
  await expect(findChromium({ CHROMIUM_PATH: '/nowhere/chromium' })).rejects.toThrow(
    /CHROMIUM_PATH is set to \/nowhere\/chromium, which does not exist\. Point it at a Chromium/,
  )
})
