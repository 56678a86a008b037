// Checks, past an operation's sunset (on --date, default today), that the server no longer serves it (policy).
import { contract } from '../../contract/index.ts'
import { type Check, CheckSkipped, ensure } from '../engine/index.ts'

const sunsetOperations = contract.operations.filter(
  (operation) => typeof operation.extensions['x-sunset'] === 'string',
)

/**
 * RFC 8594: the Sunset header (and the contract's `x-sunset`) says when an operation will stop being
 * served. Past that day, a 2xx means clients told to move were never made to: a policy finding, since the
 * contract's lifecycle is a promise to clients, not a rule of a response. Until the day, the check is
 * skipped and says when it starts; `--date` judges as of another day. One read of a pet that exists.
 */
export const servedAfterSunsetChecks: Check[] = sunsetOperations.map((operation) => ({
  group: operation.id,
  name: `${operation.id} is no longer served past its sunset (${String(operation.extensions['x-sunset'])})`,
  async run({ send, fixtures, target }) {
    const sunset = String(operation.extensions['x-sunset'])
    const today = target.date ?? new Date().toISOString().slice(0, 10)
    if (today < sunset)
      throw new CheckSkipped(
        `not past its sunset: judged from ${sunset} on (--date ${sunset} judges as of that day)`,
      )
    const path: Record<string, string | number> = {}
    for (const parameter of operation.parameters.filter((one) => one.in === 'path'))
      path[parameter.name] = (await fixtures.somePet()).id
    const served = await send(operation.id, { intent: 'past-sunset', path })
    const { status } = served.response
    ensure(
      status < 200 || status > 299,
      { rule: 'served-after-sunset', where: `${operation.id} after ${sunset}` },
      `${operation.method} ${operation.path} answered ${status} on ${today}, past its sunset ${sunset} (x-sunset; RFC 8594): it should be gone (410 or 404), so clients told to move off it do.`,
      served,
    )
  },
}))
