// Forwards a proxy's request upstream and streams the answer back, for the test proxies to share.
import {
  request as httpRequest,
  type IncomingMessage,
  type RequestOptions,
  type ServerResponse,
} from 'node:http'

/**
 * Sends a proxy's incoming request on to `target` and streams the answer back, status and headers as they
 * came; `onError` decides what the client sees when the upstream fails.
 */
export function pipeUpstream(
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestOptions,
  onError: () => void,
): void {
  const forwarded = httpRequest({ method: req.method, ...target }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers)
    answer.pipe(res)
  })
  forwarded.on('error', onError)
  req.pipe(forwarded)
}
