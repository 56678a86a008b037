// Prism's reported violations, each checked against the response: disproved ones become notes on Prism.
import { contract } from '../../../contract/index.ts'
import { declaredResponse, type ResponseCheck } from './judging.ts'

/**
 * Prism's violations (with --via-prism), each checked against the response itself. One the response
 * disproves (Prism 5.14 reports an absent optional header as a pattern mismatch, say) becomes a note about
 * Prism; one the suite's own checks already explain adds nothing; any other is a finding of its own.
 */
export const prismViolationsCheck: ResponseCheck = {
  name: 'Prism violations',
  rules: ['prism'],
  judge({ exchange, operation, recorder, violate }) {
    for (const violation of exchange.prismViolations ?? []) {
      const [side, part, headerName] = violation.location
      const where = violation.location.join('.')
      // The suite sends invalid requests on purpose; Prism's opinion of those is not the server's fault.
      if (side !== 'response') continue
      // Prism 5.14 names the place `header` (singular); `headers` is accepted in case a release fixes it.
      if ((part === 'header' || part === 'headers') && headerName !== undefined) {
        const sent = exchange.response.headers[headerName.toLowerCase()]
        // `Deprecation: true` is Prism's own addition when the server sends none (see the headers check).
        const value = headerName.toLowerCase() === 'deprecation' && sent === 'true' ? undefined : sent
        const declared = declaredResponse(operation, exchange.response.status)?.headers.find(
          (header) => header.name === headerName.toLowerCase(),
        )
        const disproved =
          (value === undefined && declared !== undefined && !declared.required) ||
          (value !== undefined &&
            declared !== undefined &&
            contract.validateResponseHeader(operation.id, exchange.response.status, headerName, value).ok)
        if (disproved) {
          recorder.notes.push(
            `Prism reported "${violation.message}" at ${where}, but the response ${value === undefined ? 'does not send that optional header' : `sends a valid value (${value})`}: a Prism false positive, ignored.`,
          )
          continue
        }
      }
      if (part === 'body' && exchange.bodyUsable && exchange.violations.length === 0) {
        recorder.notes.push(
          `Prism reported "${violation.message}" at ${where}, but the body validates against the contract's schema: ignored.`,
        )
        continue
      }
      if (exchange.violations.length > 0) continue
      if (violation.severity !== 'Error') {
        recorder.warnings.push(`Prism's proxy warns at ${where}: ${violation.message}`)
        continue
      }
      violate(
        'prism',
        `Prism: ${where} ${violation.message}`,
        `Prism's validating proxy found a violation at ${where}: ${violation.message}`,
      )
    }
    return undefined
  },
}
