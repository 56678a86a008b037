// The response check of declared headers (Deprecation, Sunset): present when required, valid when sent.
import { contract } from '../../../contract/index.ts'
import type { ResponseCheck } from './judging.ts'

/** The headers declared for the status (Deprecation, Sunset on getPet): present when required, valid when sent. */
export const headersCheck: ResponseCheck = {
  name: 'headers (Deprecation/Sunset)',
  rules: ['header'],
  judge({ exchange, operation, recorder, name, declared, violate }) {
    const { status, headers } = exchange.response
    for (const header of declared?.headers ?? []) {
      const value = headers[header.name]
      // Prism's proxy adds `Deprecation: true` (an early draft's form) to deprecated operations when the
      // server sends none: through Prism, that value is Prism's, not the server's.
      if (exchange.prismViolations && header.name === 'deprecation' && value === 'true') {
        recorder.notes.push(
          'Through Prism, GET /pets/{petId} carries `Deprecation: true`, which Prism adds when the server sends no Deprecation header; it is not judged.',
        )
        continue
      }
      const cites = header.schemaPointer.replace(/^#/, '')
      if (value === undefined) {
        if (header.required)
          violate(
            'header',
            `header ${header.name}`,
            `${name} ${status} lacks the required header ${header.name}.`,
            {
              cites,
            },
          )
        continue
      }
      const validation = contract.validateResponseHeader(operation.id, status, header.name, value)
      if (!validation.ok)
        violate(
          'header',
          `header ${header.name}`,
          `${name} ${status} header ${header.name}: ${validation.errors.map((error) => error.message).join('; ')}.`,
          { cites },
        )
    }
    return undefined
  },
}
