// Follows the headers that name a URL (Location, Content-Location, Link): each must lead where it says.
import { stringifyExactJson } from '../../contract/exact-json.ts'
import { contract } from '../../contract/index.ts'
import type { Pet } from '../../contract/types.ts'
import { createRouter } from '../../mocks/core/route.ts'
import { type Check, type CheckContext, type CreatedPet, differences, ensure } from '../engine/index.ts'
import { type Exchange, jsonOf } from '../judging/index.ts'
import { clip } from '../output/index.ts'

/** A URL an answer's header names, and what a GET of it must give. */
interface UrlPromise {
  /** `Location`, `Content-Location`, `Link rel=next`. */
  header: string
  value: string
  /** One wording per header, whichever answer showed it: one defect, one finding. */
  where: string
  /** What a GET of the URL must answer, as a sentence, or undefined when it does. */
  judge(answer: Exchange): string | undefined
  /**
   * A URL whose promise holds without a request: the contract's own URL of the created pet, whose being
   * served is the read-back's check (`lost-write`), not the header's.
   */
  kept?: string
}

// RFC 8288 §3.3: the relations that name another page of the same list, or the resource itself. Others
// (`deprecation`, RFC 9745 §3; `sunset`, RFC 8594 §6; `describedby`) name documents for people, often on
// another host, and promise nothing a client of the API follows.
const followedRelations = new Set(['next', 'prev', 'previous', 'first', 'last', 'self'])
const maxLinksTried = 3

/**
 * The targets of a Link header (RFC 8288 §3) whose relation names a resource of the API, with their
 * relation: at most a few, each once.
 * @example linkTargets('</v1/pets?page=2>; rel="next", <https://docs.example>; rel=deprecation') // [{ rel: 'next', target: '/v1/pets?page=2' }]
 */
export function linkTargets(header: string): { rel: string; target: string }[] {
  const found: { rel: string; target: string }[] = []
  for (const match of header.slice(0, 8192).matchAll(/<([^<>]{0,2048})>([^<]{0,1024})/g)) {
    const rels = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(match[2] ?? '')
    const rel = (rels?.[1] ?? rels?.[2] ?? '')
      .toLowerCase()
      .split(/\s+/)
      .find((one) => followedRelations.has(one))
    const target = match[1] ?? ''
    if (rel && !found.some((one) => one.target === target)) found.push({ rel, target })
  }
  return found.slice(0, maxLinksTried)
}

/**
 * The URL a header names, resolved against the URL the request was sent to as the server saw it (RFC 9110
 * §10.2.2, §8.7: relative to the target URI), or why it is not tried: a URL that does not parse, or one on
 * another origin, which the suite never sends to (a client would, with its key).
 */
export function resolveNamed(
  value: string,
  requestUrl: string,
): { ok: true; url: URL } | { ok: false; why: string } {
  let url: URL
  try {
    url = new URL(value.trim(), requestUrl)
  } catch {
    return { ok: false, why: 'is not a URL' }
  }
  const origin = new URL(requestUrl).origin
  if (url.origin !== origin)
    return {
      ok: false,
      why: `names another origin (${url.origin}) than the server's (${origin}); not sent there`,
    }
  return { ok: true, url }
}

// The contract's own router (the mock's), built once: its path templates, not a second copy of them.
const route = createRouter(contract)

/** The contract's GET operation whose path the URL names, below the base URL's path, if any. */
function operationAt(context: Pick<CheckContext, 'target'>, url: URL): string | undefined {
  const basePath = new URL(context.target.baseUrl).pathname.replace(/\/$/, '')
  if (!url.pathname.startsWith(`${basePath}/`)) return undefined
  const path = url.pathname.slice(basePath.length)
  const match = route('GET', path)
  return match.kind === 'operation' ? match.operation.id : undefined
}

/**
 * Sends a GET of each promise's URL (once per URL) and fails on the first that does not lead where it
 * says. The URL is sent straight to the server with the key, as a client following it would; one that is
 * the contract's own URL of what it names is not sent again (another check reads it).
 */
async function keep(
  context: CheckContext,
  promiser: Exchange,
  promises: UrlPromise[],
  sentAt: string,
): Promise<void> {
  const answers = new Map<string, Exchange>()
  for (const promise of promises) {
    const named = resolveNamed(promise.value, sentAt)
    const shown = JSON.stringify(clip(promise.value, 160))
    const expectation = {
      rule: 'broken-header-promise',
      where: promise.where,
      operation: promiser.operation,
    } as const
    ensure(named.ok, expectation, `${promise.header} ${shown} ${named.ok ? '' : named.why}.`, promiser)
    const key = named.url.href
    if (key === promise.kept) continue
    let answer = answers.get(key)
    if (!answer) {
      const operation = operationAt(context, named.url) ?? promiser.operation
      answer = await context.send(operation, {
        intent: 'named-by-header',
        method: 'GET',
        originPath: `${named.url.pathname}${named.url.search}`,
      })
      answers.set(key, answer)
    }
    const broken = promise.judge(answer)
    ensure(
      broken === undefined,
      expectation,
      `${promise.header} ${shown} of ${promiser.request.method} ${new URL(promiser.request.url).pathname} ${promiser.response.status}: GET ${named.url.pathname}${named.url.search} ${broken}.`,
      answer,
    )
  }
}

/** The JSON of a 200, or why the answer is not one. */
function jsonOf200(answer: Exchange): { ok: true; value: unknown } | { ok: false; why: string } {
  if (answer.response.status !== 200) return { ok: false, why: `answered ${answer.response.status}, not 200` }
  const value = jsonOf(answer)
  return value === undefined ? { ok: false, why: 'answered 200 with no JSON' } : { ok: true, value }
}

/**
 * A GET of the URL gives the pet created (RFC 9110 §10.2.2: Location names the created resource): the id
 * of its 201, or what was sent under another id. In that case the header is right and the 201's id is
 * not, which the read-back reports (`lost-write`): one defect, one finding.
 */
const thePet =
  ({ sent, pet }: CreatedPet) =>
  (answer: Exchange): string | undefined => {
    const read = jsonOf200(answer)
    if (!read.ok) return `${read.why}; it names the pet created as ${stringifyExactJson(pet.id)}`
    const served = read.value as Partial<Pet> | null
    const id = typeof served === 'object' && served !== null ? served.id : undefined
    if (id !== undefined && stringifyExactJson(id) === stringifyExactJson(pet.id)) return undefined
    if (id !== undefined && differences(sent, served as Pet).length === 0) return undefined
    return `answered 200 with ${id === undefined ? 'no pet' : `pet ${stringifyExactJson(id)}`}, not the pet created as ${stringifyExactJson(pet.id)}`
  }

/** A GET of the URL gives a page of the list: a JSON array. */
const aPage = (answer: Exchange): string | undefined => {
  const read = jsonOf200(answer)
  if (!read.ok) return read.why
  return Array.isArray(read.value) ? undefined : 'answered 200 with something other than a page of pets'
}

/** A GET of the URL answers 200. */
const answers200 = (answer: Exchange): string | undefined =>
  answer.response.status === 200 ? undefined : `answered ${answer.response.status}, not 200`

/** The Link targets an answer names, each with what a GET of it must give. */
function linkPromises(exchange: Exchange, page: boolean): UrlPromise[] {
  const header = exchange.response.headers.link
  return (header === undefined ? [] : linkTargets(header)).map(({ rel, target }) => ({
    header: `Link rel=${rel}`,
    value: target,
    where: 'Link targets lead to what they name',
    judge: page && rel !== 'self' ? aPage : answers200,
  }))
}

/** The 201 of the run's first create: the URLs it names lead to the pet it created. */
const createdPetUrls: Check = {
  group: 'createPet',
  name: "the URLs createPet's 201 names (Location, Content-Location, Link) lead to the created pet",
  writes: true,
  async run(context) {
    const created = (await context.fixtures.createdPets()).byStatus.available
    const { pet, exchange } = created
    if (!exchange) return
    const { location, 'content-location': contentLocation } = exchange.response.headers
    const petUrl = new URL(
      `${context.target.baseUrl}${contract.operation('getPet').path.replace(/\{[^}]+\}/, encodeURIComponent(String(pet.id)))}`,
    ).href
    await keep(
      context,
      exchange,
      [
        ...(location === undefined
          ? []
          : [
              {
                header: 'Location',
                value: location,
                where: 'Location leads to the created pet',
                judge: thePet(created),
                kept: petUrl,
              },
            ]),
        ...(contentLocation === undefined
          ? []
          : [
              {
                header: 'Content-Location',
                value: contentLocation,
                where: 'Content-Location leads to the resource sent',
                judge: thePet(created),
                kept: petUrl,
              },
            ]),
        ...linkPromises(exchange, false),
      ],
      asSent(context, 'createPet'),
    )
  },
}

/** One page of the list: its Content-Location and paging links lead to pages of the list. */
const listUrls: Check = {
  group: 'listPets',
  name: 'the URLs a page of listPets names (Content-Location, Link rel=next…) lead to pages of the list',
  async run(context) {
    const { listed } = await context.listAfterWrites({ limit: 1 })
    const contentLocation = listed.response.headers['content-location']
    await keep(
      context,
      listed,
      [
        ...(contentLocation === undefined
          ? []
          : [
              {
                header: 'Content-Location',
                value: contentLocation,
                where: 'Content-Location leads to the resource sent',
                judge: aPage,
              },
            ]),
        ...linkPromises(listed, true),
      ],
      `${asSent(context, 'listPets')}?limit=1`,
    )
  },
}

/**
 * The URL the request went to as the server saw it: the base URL and the operation's path (through Prism
 * the request went to Prism, but the server wrote its headers for its own URL).
 */
function asSent(context: Pick<CheckContext, 'target'>, operationId: string): string {
  return `${context.target.baseUrl}${contract.operation(operationId).path}`
}

export const headerUrlChecks: Check[] = [createdPetUrls, listUrls]
