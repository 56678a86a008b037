// Serves the example app with Vite's dev server, MSW's worker script written into its public folder first.
import { fileURLToPath } from 'node:url'
import { createServer } from 'vite'
import { writeServiceWorker } from '../service-worker-file.ts'

export interface ExampleServer {
  url: string
  close(): Promise<void>
}

/**
 * Serves the example app with Vite's dev server, after writing MSW's worker script into its public
 * folder (the in-browser mock needs it at the site root).
 */
export async function startExampleServer(
  options: { port?: number; host?: string; apiBaseUrl?: string } = {},
): Promise<ExampleServer> {
  const root = fileURLToPath(new URL('.', import.meta.url))
  writeServiceWorker(`${root}public`)
  if (options.apiBaseUrl) process.env.VITE_API_BASE_URL = options.apiBaseUrl
  const server = await createServer({
    configFile: `${root}vite.config.ts`,
    logLevel: 'warn',
    server: { port: options.port ?? 5173, host: options.host ?? '127.0.0.1', strictPort: true },
  })
  await server.listen()
  const url =
    server.resolvedUrls?.local[0] ?? `http://${options.host ?? '127.0.0.1'}:${options.port ?? 5173}/`
  return { url, close: () => server.close() }
}
