// One Chromium per test process, for every test file that drives a page through playwright-core.
import { type Browser, chromium as playwright } from 'playwright-core'
import { findChromium } from '../find-chromium.ts'

let launched: Promise<Browser> | undefined

/**
 * The test process's Chromium, launched on first use and kept for the files after (a worker runs its files
 * one after another): each file works in contexts of its own (`newContext()`: a fresh, empty profile
 * each, service workers and storage included) and closes them, never the browser. Playwright closes it
 * when the process ends, however it ends (its exit and signal handlers); a launch that failed is tried
 * again by the next caller.
 */
export function sharedChromium(): Promise<Browser> {
  launched ??= findChromium().then((chromium) =>
    playwright
      .launch({ executablePath: chromium.executablePath, args: chromium.args })
      .catch((error: Error) => {
        launched = undefined
        throw new Error(`Failed to launch Chromium from ${chromium.source}: ${error.message}`)
      }),
  )
  return launched
}
