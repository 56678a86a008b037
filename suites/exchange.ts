/** One request the suite sent and what came back, kept for the report of the check that sent it. */
export interface Exchange {
  /** The contract operation the request was aimed at (`listPets`, or `GET /store/orders`). */
  operation: string
  request: { method: string; url: string; headers: Record<string, string>; body?: string }
  response: { status: number; headers: Record<string, string>; body: string }
  /** Violations Prism's proxy listed in `sl-violations` (only with --via-prism). */
  prismViolations?: { location: string[]; severity: string; message: string }[]
}

/** A check's verdict: why it failed, and the traffic that shows it. */
export class CheckFailure extends Error {
  override name = 'CheckFailure'
  readonly exchanges: Exchange[]
  constructor(message: string, exchanges: Exchange[] = []) {
    super(message)
    this.exchanges = exchanges
  }
}

/** Fails the check unless `condition` holds. */
export function ensure(condition: unknown, message: string, exchange?: Exchange): asserts condition {
  if (!condition) throw new CheckFailure(message, exchange ? [exchange] : [])
}

/** The exchange as a person reads it in a report: the request sent, the response received. */
export function describeExchange(exchange: Exchange, maxBody = 2000): string {
  const clip = (text: string) =>
    text.length > maxBody ? `${text.slice(0, maxBody)}… (${text.length} chars)` : text
  const headers = (all: Record<string, string>) =>
    Object.entries(all)
      .map(([name, value]) => `  ${name}: ${name === 'authorization' ? redact(value) : value}`)
      .join('\n')
  const request = exchange.request
  return [
    `> ${request.method} ${request.url}`,
    headers(request.headers),
    ...(request.body === undefined ? [] : [`  ${clip(request.body)}`]),
    `< ${exchange.response.status}`,
    headers(exchange.response.headers),
    `  ${clip(exchange.response.body)}`,
  ]
    .filter((line) => line !== '')
    .join('\n')
}

// Reports end up in CI logs: never print a whole API key.
function redact(value: string): string {
  const [scheme, key] = value.split(/\s+/, 2)
  if (key === undefined) return value.length > 4 ? `${value.slice(0, 2)}…` : '…'
  return `${scheme} ${key.length > 4 ? `${key.slice(0, 2)}…${key.slice(-2)}` : '…'}`
}
