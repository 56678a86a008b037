// Checks getPet's Deprecation date is no later than its Sunset: seconds, not milliseconds (RFC 9745).
import type { Check } from '../engine/index.ts'
import { ensure } from '../engine/index.ts'

/**
 * RFC 9745 §2.1: `Deprecation` is a Structured Field Date, seconds since the epoch; §3 (with RFC 8594): the
 * Sunset date should not be earlier than the Deprecation date. A server that writes milliseconds
 * (`Date.now()`, a Java `Instant.toEpochMilli()`) still matches the contract's pattern, but dates the
 * deprecation some 55,000 years after the operation's removal. One read of a pet that exists.
 */
export const deprecationDateChecks: Check[] = [
  {
    group: 'getPet',
    name: 'Deprecation, when sent with Sunset, dates the deprecation no later than the removal',
    async run({ send, fixtures }) {
      const pet = await fixtures.somePet()
      const found = await send('getPet', { intent: 'valid', path: { petId: pet.id } })
      const { deprecation, sunset } = found.response.headers
      const seconds = /^@(-?\d{1,15})$/.exec(deprecation ?? '')?.[1]
      const removal = sunset === undefined ? Number.NaN : Date.parse(sunset)
      // Absent or malformed headers are judged by the contract's header schemas (send.ts), not here.
      if (seconds === undefined || Number.isNaN(removal)) return
      const deprecated = Number(seconds) * 1000
      ensure(
        deprecated <= removal,
        { rule: 'header', where: 'header deprecation' },
        `GET /pets/${pet.id} sends Deprecation "${deprecation}" (${describeDate(deprecated)}), later than its Sunset "${sunset}": RFC 9745 dates are seconds since the epoch (milliseconds?), and an operation is deprecated before it is removed.`,
        found,
      )
    },
  },
]

function describeDate(ms: number): string {
  const date = new Date(ms)
  return Number.isNaN(date.getTime()) ? `${ms / 1000} s after 1970` : date.toISOString().slice(0, 10)
}
