// The response check that an Error body's `status` field equals the HTTP status.
import type { ResponseCheck } from './judging.ts'

/** An Error body that matches its schema says the HTTP status in its `status` field. */
export const errorShapeCheck: ResponseCheck = {
  name: 'Error shape',
  rules: ['error-status'],
  judge({ exchange, name, violate }) {
    const { status } = exchange.response
    if (status < 400 || !exchange.bodyUsable || !('json' in exchange)) return undefined
    const said = (exchange.json as { status?: unknown } | null)?.status
    if (said !== status)
      violate(
        'error-status',
        'Error status field',
        `${name} ${status} Error body says status ${JSON.stringify(said)}; it must equal the HTTP status.`,
        { cites: '/components/schemas/Error/properties/status' },
      )
    return undefined
  },
}
