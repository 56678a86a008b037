// Watches pooled connections for bytes no request asked for, and drops keep-alive once a server desyncs.
import { type AgentOptions, type ClientRequest, Agent as HttpAgent } from 'node:http'
import { Agent as HttpsAgent, type AgentOptions as HttpsAgentOptions } from 'node:https'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'

/**
 * Bytes a server wrote on a kept-alive connection while no request was on it: a response nobody asked
 * for (RFC 9112 §9.3.2: a client must not pipeline, so no answer is owed on an idle connection). Whatever
 * came on that connection before may have been shifted by one: a response written after an answer is
 * taken as the answer of the next request sent on that connection, whose own answer then comes after.
 */
export interface Desync {
  /** The connection's id (see `connectionOf`). */
  connection: number
  at: number
  /** How many bytes came at once, and the first of them as Latin-1 text (the server's, unvetted). */
  bytes: number
  start: string
  /** The first line, when the bytes start as a status line does. */
  statusLine?: string
  /** `idle`: bytes on a pooled connection; `double`: a second response while a request still had its own. */
  how: 'idle' | 'double'
  /**
   * The request whose answer the bytes followed on that connection (`GET /v1/pets?limit=2`): the last one
   * answered there for `idle`; for `double`, the request itself or the one before it (desync-retry.ts).
   */
  after?: string
}

// Ids rather than sockets: the exchanges keep a number (plain data, task meta), never the socket.
const ids = new WeakMap<Socket, number>()
let lastId = 0

/** The id of the connection a response came on: the same number for every response on that socket. */
export function connectionOf(socket: Socket | null | undefined): number | undefined {
  if (!socket) return undefined
  let id = ids.get(socket)
  if (id === undefined) {
    id = ++lastId
    ids.set(socket, id)
  }
  return id
}

// The last request sent on each connection, as `METHOD path`, and how many it carried: what bytes that
// come after its answer follow, and whether a request is still the connection's latest.
const lastSent = new WeakMap<Duplex, { line: string; turn: number }>()

/**
 * Notes `request` (`METHOD path`) as sent on `socket`, and gives the request sent on it before, if any,
 * and this request's turn on it (for `secondAnswerOn`).
 * node:http's `reusedSocket` says a request is not the first only for a socket taken from the pool, not
 * for one handed straight from a finished request to a queued one.
 */
export function sentOn(socket: Duplex, request: string): { again: boolean; before?: string; turn: number } {
  const before = lastSent.get(socket)
  const turn = (before?.turn ?? 0) + 1
  lastSent.set(socket, { line: request, turn })
  return before === undefined ? { again: false, turn } : { again: true, before: before.line, turn }
}

// A correct server may announce that it closes an idle connection with a 408 (RFC 9110 §15.5.9).
const closingNotice = /^HTTP\/1\.[01] 408\b/

/**
 * The watch one client's agents share. The first desync turns keep-alive off for the rest of the run:
 * a connection per request, so no answer after it can be another request's.
 */
export class ConnectionWatch {
  readonly desyncs: Desync[] = []
  /** Connections found desynced, or open when the first was: every response that came on one is suspect. */
  readonly desynced = new Set<number>()
  private readonly agents: (HttpAgent & Watched)[] = []

  get keepAlive(): boolean {
    return this.desyncs.length === 0
  }

  httpAgent(options: AgentOptions): HttpAgent {
    return this.adopt(new WatchedHttpAgent(options))
  }

  httpsAgent(options: HttpsAgentOptions): HttpsAgent {
    return this.adopt(new WatchedHttpsAgent(options))
  }

  private adopt<A extends HttpAgent & Watched>(agent: A): A {
    agent.watch = this
    this.agents.push(agent)
    return agent
  }

  /** Called by the agents: bytes nobody asked for came on `socket`. */
  record(socket: Socket, chunk: Buffer, how: Desync['how']): Desync | undefined {
    const connection = connectionOf(socket) as number
    const start = chunk.subarray(0, 64).toString('latin1')
    const statusLine = /^HTTP\/\d\.\d [^\r\n]*/.exec(start)?.[0]
    // Also when it came just as the last answer was being read: node:http takes it for a double response.
    if (statusLine && closingNotice.test(statusLine)) return undefined
    // Connections open now may carry a desync not seen yet: keep-alive goes off, so they are closed once
    // their request is done, and whatever is still owed on them is never read. Their answers are suspect.
    if (this.keepAlive)
      for (const agent of this.agents)
        for (const open of [...Object.values(agent.sockets), ...Object.values(agent.freeSockets)].flat())
          if (open) this.desynced.add(connectionOf(open as Socket) as number)
    this.desynced.add(connection)
    const after = lastSent.get(socket)?.line
    const desync: Desync = {
      connection,
      at: Date.now(),
      bytes: chunk.length,
      start,
      ...(statusLine ? { statusLine } : {}),
      how,
      ...(after === undefined ? {} : { after }),
    }
    this.desyncs.push(desync)
    // Connections already pooled may be desynced too, unseen: none is handed out again. Closed here, which
    // a read still decoding an answer that came on one must not take for a second response.
    for (const agent of this.agents)
      for (const pooled of Object.values(agent.freeSockets).flat()) {
        if (!pooled) continue
        const closing = closings.get(pooled)
        if (closing) closing.here = true
        pooled.destroy()
      }
    return desync
  }
}

interface Watched {
  watch?: ConnectionWatch
}

// What an idle socket listens with, so that handing it out again can take exactly that listener off.
const idleListeners = new WeakMap<Duplex, (chunk: Buffer) => void>()
// Per socket: whether the server closed it, it failed, or this module closed it; then a socket destroyed
// on its way back to the pool is not a double response.
const closings = new WeakMap<Duplex, Closing>()
interface Closing {
  ended: boolean
  errored: boolean
  here: boolean
  /** Bytes came: it has carried a request (a new socket is handed to a queued request as 'free' too). */
  answered: boolean
  /** The last bytes read: where a double response starts. */
  read: Buffer
  /** The watch of the agent that opened it, and the double response once recorded (recorded once). */
  watch?: ConnectionWatch
  double?: Desync
}

// Enough of the last bytes read to hold the status line and headers of a response that came second.
const keptBytes = 2048

/** A double response's bytes: from the last status line in what was read last (none found, all of it). */
function secondResponse(read: Buffer): Buffer {
  const text = read.toString('latin1')
  let at = -1
  for (const match of text.matchAll(/HTTP\/1\.[01] \d{3}/g)) at = match.index
  return at === -1 ? read : read.subarray(at)
}

/**
 * Whether node:http's client destroyed `socket` for a second response to the request on it: destroyed,
 * though no side closed it, no error came and this module left it alone. Recorded once, as a `double`
 * desync, whichever sees it first: the request reading its answer, or the agent taking the socket back.
 * A request passes its `turn` (`sentOn`): a decoded body ends a thread-pool round trip or more after its
 * bytes did, and by then the connection may carry the next request, whose end is that one's to explain
 * (a compressed answer, then a HEAD answer without a length, which node:http closes the connection after).
 */
export function secondAnswerOn(socket: Duplex, turn?: number): Desync | undefined {
  const closing = closings.get(socket)
  if (!closing || !socket.destroyed || closing.ended || closing.errored || closing.here) return undefined
  if (turn !== undefined && lastSent.get(socket)?.turn !== turn) return undefined
  closing.double ??= closing.watch?.record(socket as Socket, secondResponse(closing.read), 'double')
  return closing.double
}

/**
 * The answer on `socket` said the connection ends with it (`Connection: close`, or HTTP/1.0 without
 * keep-alive): node:http's client then destroys the socket itself, often before the server's close
 * arrives, and that is no double response. A HEAD answered so (no body to wait for) showed it first.
 */
export function closeAnnouncedOn(socket: Duplex): void {
  const closing = closings.get(socket)
  if (closing) closing.here = true
}

/**
 * The request on `socket` failed (a parse error, a deadline, a body over the cap): whatever closed the
 * connection is explained, and is no double response.
 */
export function requestFailedOn(socket: Duplex): void {
  const closing = closings.get(socket)
  if (closing) closing.errored = true
}

// biome-ignore lint/suspicious/noExplicitAny: a mixin's constructor must take `...any[]` (TS2545).
type AgentClass = new (...args: any[]) => HttpAgent

/**
 * An agent that watches its pooled connections through the documented hooks: `keepSocketAlive` when a
 * connection goes idle, `reuseSocket` when it is handed to a request. Nothing is owed on an idle one, so
 * any byte there is unsolicited; the connection is destroyed, never handed out again. A socket that
 * comes back to the pool already destroyed, though no side closed it and no error came, was destroyed by
 * node:http's client because a second response came for a request that already had one (the "double
 * response" in `_http_client.js`): the same desync, seen while the connection was busy.
 */
function watched<Base extends AgentClass>(base: Base) {
  return class WatchedAgent extends base implements Watched {
    watch?: ConnectionWatch

    // biome-ignore lint/suspicious/noExplicitAny: see AgentClass.
    constructor(...args: any[]) {
      super(...args)
      // Before node:http's own 'free' listener, which destroys such a socket and drops it.
      this.prependListener('free', (socket: Socket) => {
        secondAnswerOn(socket)
        const closing = closings.get(socket)
        // A freed socket goes straight to a queued request, without `keepSocketAlive`: keep-alive off
        // means closing it here (node:http then opens a new one for that request).
        // A new socket is 'free' too, before its first request: that one is left alone.
        if (this.watch && !this.watch.keepAlive && !socket.destroyed && closing?.answered) {
          if (closing) closing.here = true
          socket.destroy()
        }
      })
    }

    override createConnection(...args: Parameters<HttpAgent['createConnection']>) {
      const socket = super.createConnection(...args)
      if (socket) follow(socket, this.watch)
      return socket
    }

    override keepSocketAlive(socket: Duplex): boolean {
      if (this.watch && !this.watch.keepAlive) return false
      if (!(super.keepSocketAlive(socket) as unknown as boolean)) return false
      const onIdle = (chunk: Buffer) => {
        socket.removeListener('data', onIdle)
        idleListeners.delete(socket)
        const closing = closings.get(socket)
        if (closing) closing.here = true
        socket.destroy()
        this.watch?.record(socket as Socket, chunk, 'idle')
      }
      idleListeners.set(socket, onIdle)
      socket.on('data', onIdle)
      return true
    }

    override reuseSocket(socket: Duplex, request: ClientRequest): void {
      const onIdle = idleListeners.get(socket)
      if (onIdle) socket.removeListener('data', onIdle)
      idleListeners.delete(socket)
      super.reuseSocket(socket, request)
    }
  }
}

function follow(socket: Duplex, watch: ConnectionWatch | undefined): void {
  const closing: Closing = {
    ended: false,
    errored: false,
    here: false,
    answered: false,
    read: Buffer.alloc(0),
    ...(watch ? { watch } : {}),
  }
  closings.set(socket, closing)
  socket.on('end', () => {
    closing.ended = true
  })
  socket.on('error', () => {
    closing.errored = true
  })
  socket.on('data', (chunk: Buffer) => {
    closing.answered = true
    // A copy of the last bytes only: neither the whole chunk (every body would be copied twice) nor a
    // view of it (which would pin the socket's 64 KiB read).
    closing.read =
      chunk.length >= keptBytes
        ? Buffer.from(chunk.subarray(chunk.length - keptBytes))
        : Buffer.concat([
            closing.read.subarray(Math.max(0, closing.read.length + chunk.length - keptBytes)),
            chunk,
          ])
  })
}

const WatchedHttpAgent = watched(HttpAgent)
const WatchedHttpsAgent = watched(HttpsAgent)

/** What the run's connections showed (below), as the reporter gets it through task meta. */
export interface DesyncFacts {
  /** Connections whose answers are suspect: found desynced, or open when the first desync was seen. */
  connections: number[]
  /** How many times bytes nobody asked for were seen (keep-alive is off after the first). */
  count: number
  first: Pick<Desync, 'bytes' | 'statusLine' | 'how' | 'after'>
}
