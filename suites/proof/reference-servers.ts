// The correct servers the suite must pass, in styles unlike our mock, started from the reference service.
import { createReferenceService, type Defect, type ReferenceStyle } from './reference-service.ts'
import { type ProofServer, type StartedServer, serveReference } from './serve-reference.ts'

/** A correct server in a style unlike our mock, started fresh on each `start()`. */
export interface ReferenceServer extends ProofServer {
  /** What it does where the contract leaves room, in a sentence. */
  style: string
  settings: ReferenceStyle
  /** Why Prism's proxy cannot carry its data (the suite then checks it directly, and says so). */
  roundedByPrism?: string
}

/**
 * Server A: random ids across the whole safe integer range, newest first, `status` defaulted to
 * "available", `application/json; charset=UTF-8`, `Connection: close`, Deprecation and Sunset sent,
 * 3,000 seeded pets with non-ASCII names, 400 for bad parameters, an empty list for orders.
 */
export const serverA: ReferenceStyle = {
  ids: 'random',
  order: 'newest-first',
  defaultStatus: 'available',
  contentType: 'application/json; charset=UTF-8',
  connectionClose: true,
  chunked: false,
  badParameterStatus: 400,
  extraFields: false,
  deprecationHeaders: true,
  seededPets: 3000,
  orders: 'empty-list',
}

/**
 * Server B: ids from 10^12 with random gaps, ordered by name, no default status, extra fields in every
 * Pet, chunked bodies on kept-alive connections, no Deprecation/Sunset, 422 for bad parameters and ids
 * (an undeclared 4xx: a warning by policy), 40 seeded pets, 501 for orders.
 */
export const serverB: ReferenceStyle = {
  ids: 'offset-gaps',
  order: 'by-name',
  contentType: 'application/json',
  connectionClose: false,
  chunked: true,
  badParameterStatus: 422,
  extraFields: true,
  deprecationHeaders: false,
  seededPets: 40,
  orders: 'not-implemented',
}

/**
 * Server C: exact int64 everywhere, as a Go or Java server stores it: random 63-bit ids (nearly all beyond
 * 2^53), 2,000 seeded pets with categoryIds beyond 2^60 and names from every Unicode plane, by name,
 * `application/json;charset=utf-8`, 404 for bad parameters and ids, 501 for orders.
 */
export const serverC: ReferenceStyle = {
  ids: 'random-63-bit',
  order: 'by-name',
  contentType: 'application/json;charset=utf-8',
  connectionClose: false,
  chunked: false,
  badParameterStatus: 404,
  extraFields: false,
  deprecationHeaders: true,
  seededPets: 2000,
  seededExtremes: true,
  orders: 'not-implemented',
}

/**
 * Server D: HTTP as a CDN-fronted framework speaks it: every body chunked and compressed whenever the
 * request allows it (br, gzip and deflate in turn, `Vary: Accept-Encoding`), an ETag on every 200 to
 * a GET with 304 for a matching If-None-Match, JSON indented by two spaces, Content-Location and a
 * `rel="self"` Link on list pages and Content-Location on a 201. Ids from 10^12 with gaps, newest first,
 * 400 for bad parameters, 300 seeded pets, an empty list for orders.
 */
const serverD: ReferenceStyle = {
  ids: 'offset-gaps',
  order: 'newest-first',
  contentType: 'application/json; charset=utf-8',
  connectionClose: false,
  chunked: true,
  compress: true,
  etags: true,
  pretty: true,
  selfLinks: true,
  badParameterStatus: 400,
  extraFields: false,
  deprecationHeaders: true,
  seededPets: 300,
  orders: 'empty-list',
}

/**
 * Starts a reference server in `settings`, with one defect if given, on 127.0.0.1 port 0.
 * @example const server = await startReference(serverB); ... await server.close()
 */
export function startReference(settings: ReferenceStyle, defect?: Defect): Promise<StartedServer> {
  const apiKey = 'Proof-Key-7f3a9c'
  return serveReference(createReferenceService(settings, apiKey, defect), settings, apiKey)
}

/** The correct servers of the proof: the suite must pass every one of them, in every mode. */
export const referenceServers: ReferenceServer[] = [
  {
    name: 'reference A (random ids, newest first, default status, Connection: close, 3,000 pets)',
    style:
      'random 63-bit ids, newest first, status defaulted, charset=UTF-8, Connection: close, 3,000 unicode pets',
    settings: serverA,
    start: () => startReference(serverA),
  },
  {
    name: 'reference B (offset ids with gaps, by name, extra fields, chunked, 422 for bad parameters)',
    style: 'ids from 10^12 with gaps, ordered by name, extra Pet fields, chunked, 422 for bad parameters',
    settings: serverB,
    start: () => startReference(serverB),
  },
  {
    name: 'reference C (exact int64: random 63-bit ids, 2,000 pets with categoryIds beyond 2^60, every Unicode plane)',
    style:
      'random 63-bit ids, categoryIds beyond 2^60, names from planes 0-16, by name, 404 for bad parameters',
    settings: serverC,
    start: () => startReference(serverC),
    roundedByPrism:
      'Prism’s proxy re-serialises JSON through doubles: every id beyond 2^53 would reach the suite rounded.',
  },
  {
    name: 'reference D (chunked, compressed br/gzip/deflate, ETags and 304, pretty-printed JSON)',
    style:
      'every body chunked and compressed as allowed, ETags with 304 on If-None-Match, indented JSON, Content-Location and self Links',
    settings: serverD,
    start: () => startReference(serverD),
  },
]
