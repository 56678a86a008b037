// One request's deadline, paused while the suite itself holds the body, beside the run's, which never pauses.
/**
 * One request's own deadline (`--request-timeout`), which stops while the request waits on the suite (its
 * body at the gate, body-gate.ts), beside the run's, which never stops. `expire` is told which of the two
 * passed: `ranOut` when it was the run's.
 */
export class RequestDeadline {
  #left: number
  #endsAt = 0
  #timer: ReturnType<typeof setTimeout> | undefined
  readonly #runDeadline: number
  readonly #expire: (ranOut: boolean) => void

  constructor(requestTimeoutMs: number, runDeadline: number, expire: (ranOut: boolean) => void) {
    this.#left = requestTimeoutMs
    this.#runDeadline = runDeadline
    this.#expire = expire
  }

  get started(): boolean {
    return this.#timer !== undefined
  }

  start(): void {
    clearTimeout(this.#timer)
    this.#endsAt = Date.now() + this.#left
    const runLeft = this.#runDeadline - Date.now()
    const ranOut = runLeft < this.#left
    this.#timer = setTimeout(() => this.#expire(ranOut), Math.max(0, Math.min(this.#left, runLeft)))
  }

  /** Stops the request's own deadline, keeping what was left of it; the run's goes on. */
  pause(): void {
    clearTimeout(this.#timer)
    this.#left = Math.max(0, this.#endsAt - Date.now())
    this.#timer = setTimeout(() => this.#expire(true), Math.max(0, this.#runDeadline - Date.now()))
  }

  /** Goes on with what was left of the request's own deadline. */
  resume(): void {
    this.start()
  }

  clear(): void {
    clearTimeout(this.#timer)
  }
}
