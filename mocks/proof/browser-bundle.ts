// Bundles a browser test page's source with esbuild, against this repository or an installed package.
import { build } from 'esbuild'

/**
 * A test page's module, bundled for Chromium from source text: imports resolve from `resolveDir` (this
 * repository's mocks/, or a scratch project that installed the package), so one page can test either.
 */
export async function bundleForBrowser(
  contents: string,
  resolveDir: string,
  sourcefile?: string,
): Promise<string> {
  const built = await build({
    stdin: { contents, resolveDir, loader: 'ts', ...(sourcefile ? { sourcefile } : {}) },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'error',
  })
  return built.outputFiles[0]?.text ?? ''
}
