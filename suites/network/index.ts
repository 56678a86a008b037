// The network client: bounded requests (deadline, byte and chunk caps, pacing), direct or through a proxy,
// and what the connections showed.
// The face of suites/network/: other folders import from here, never from its files.
export { boundedRequest, closeRunClient, desyncFacts, trafficFacts } from './bounded-request.ts'
export type { DesyncFacts } from './connection-watch.ts'
export {
  isPublicHeader,
  type NetworkFlags,
  type NetworkOptions,
  networkOptionsFrom,
  networkSecrets,
  splitHeader,
} from './network-options.ts'
export type { Received } from './received.ts'
export type { RequestLimits } from './request-outcome.ts'
export { type TrafficFacts, trafficLine } from './request-pacing.ts'
export { largeBodyBytes, releaseJudgedBody } from './response-body.ts'
