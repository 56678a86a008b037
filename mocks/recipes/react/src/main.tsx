// The React recipe's entry: the mock's worker first, then the app, so the first query never races it.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createApiClient } from './api-client.ts'
import { enableMocking } from './enable-mocking.ts'
import { Pets } from './pets.tsx'

// Absolute, so the same client works in the browser and in Node tests: `/v1` resolves against the page.
const apiBaseUrl = new URL(import.meta.env.VITE_API_BASE_URL ?? '/v1', location.href).href
// Before the first render: the first query must not race the mock's service worker.
await enableMocking(apiBaseUrl)

const client = createApiClient(apiBaseUrl, import.meta.env.VITE_API_KEY ?? 'animal-store-mock-key')
createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <QueryClientProvider client={new QueryClient()}>
      <Pets client={client} />
    </QueryClientProvider>
  </StrictMode>,
)
