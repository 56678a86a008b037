import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { writeServiceWorker } from './service-worker-file.ts'

const scratch = () => mkdtempSync(join(tmpdir(), 'animal-store-worker-'))

it('writes msw’s mockServiceWorker.js into the folder, creating it, and replaces an older copy', () => {
  const publicDir = join(scratch(), 'public')
  const written = writeServiceWorker(publicDir)
  expect(written).toBe(join(publicDir, 'mockServiceWorker.js'))
  writeFileSync(written, '// an older msw’s worker')
  writeServiceWorker(publicDir)
  expect(readFileSync(written, 'utf8')).toContain('Mock Service Worker')
})

it('refuses to write through a symbolic link, says why, and leaves the linked file as it was', () => {
  const dir = scratch()
  const precious = join(dir, 'precious.js')
  writeFileSync(precious, 'keep me')
  symlinkSync(precious, join(dir, 'mockServiceWorker.js'))
  expect(() => writeServiceWorker(dir)).toThrow(
    /is a symbolic link; writing the worker through it would overwrite/,
  )
  expect(readFileSync(precious, 'utf8')).toBe('keep me')
  // A dangling link is refused too: following it would create a file wherever it points.
  const dangling = scratch()
  symlinkSync(join(dangling, 'elsewhere.js'), join(dangling, 'mockServiceWorker.js'))
  expect(() => writeServiceWorker(dangling)).toThrow(/symbolic link/)
  expect(existsSync(join(dangling, 'elsewhere.js'))).toBe(false)
})
