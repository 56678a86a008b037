// Requests as real clients send them, each to be accepted: a refusal names the form and the clients that send it.
import { type Check, type CheckContext, ensure } from '../engine/index.ts'
import type { Exchange, SendParams } from '../judging/index.ts'
import {
  type ClientFormId,
  type ClientProfile,
  clientForm,
  clientProfiles,
  clientsSending,
  refusalOf,
} from '../values/index.ts'

const group = 'clients'

/** The cheap read and the create each client's request is sent as. */
const requests = {
  read: { operation: 'listPets', line: 'GET /pets?limit=1', takes: ['reads', 'all'] },
  create: { operation: 'createPet', line: 'POST /pets', takes: ['create', 'all'] },
} as const
type RequestKind = keyof typeof requests

/** A name in its usual capitals, as curl, Go, Java and browsers over HTTP/1.1 write it: `Content-Type`. */
const capitalise = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase())

/** The forms of the list that apply to this request. */
function applicable(forms: readonly ClientFormId[], kind: RequestKind): ClientFormId[] {
  const on: readonly string[] = requests[kind].takes
  return forms.filter((id) => on.includes(clientForm(id).on))
}

/**
 * The suite's own request with these forms applied: every header the form may touch is written out (the key,
 * Accept, the create's Content-Type), so a client's spelling of its names and values is the one sent.
 */
function paramsWith(
  context: CheckContext,
  kind: RequestKind,
  forms: readonly ClientFormId[],
  name: string,
): SendParams {
  const chosen = forms.map(clientForm)
  const scheme = chosen.find((form) => form.scheme !== undefined)?.scheme ?? 'Bearer'
  let headers: Record<string, string> = {
    authorization: `${scheme} ${context.target.apiKey}`,
    accept: 'application/json',
    ...(kind === 'create' ? { 'content-type': 'application/json' } : {}),
  }
  const leaveOut = chosen.flatMap((form) => form.leaveOut ?? [])
  for (const form of chosen) headers = { ...headers, ...form.headers }
  for (const left of leaveOut) delete headers[left]
  if (chosen.some((form) => form.capitalised))
    headers = Object.fromEntries(
      Object.entries(headers).map(([header, value]) => [capitalise(header), value]),
    )
  const pet = { name, categoryId: 6 }
  const serialise = chosen.find((form) => form.serialise !== undefined)?.serialise ?? JSON.stringify
  return {
    intent: 'valid',
    headers,
    ...(leaveOut.length > 0 ? { leaveOut } : {}),
    ...(kind === 'read' ? { query: { limit: 1 } } : { body: serialise(pet) }),
  }
}

/** A refusal: a 4xx to a request the contract allows (a 5xx is a server error, judged as such). */
const refused = (exchange: Exchange) => exchange.response.status >= 400 && exchange.response.status <= 499

/**
 * The refusal is reported once, at its root (the form alone): the undeclared status of the client's whole
 * request is the same defect, not one of its own.
 */
function claimRefusal(exchange: Exchange): void {
  const others = exchange.violations.filter((violation) => violation.rule !== 'undeclared-status')
  exchange.violations.splice(0, exchange.violations.length, ...others)
}

/**
 * Sends the client's request; when it is refused, the suite's own request and then each of the client's
 * forms alone find the root: the first form refused alone is the finding (one per form, whichever client
 * and request showed it), else the client's forms together. Nothing more is sent when the client is
 * accepted, so a correct server costs one request per client and kind.
 */
function clientCheck(profile: ClientProfile, kind: RequestKind): Check {
  const { operation, line } = requests[kind]
  const forms = applicable(profile.forms, kind)
  return {
    group,
    name: `${line} as ${profile.client} sends it: accepted`,
    writes: kind === 'create',
    async run(context) {
      // ASCII only: the pet is the client's, not a test of how names are stored.
      const name = `${context.fixtures.runId} as ${profile.client.replace(/[^\w .-]+/g, '')}`
      const send = (chosen: readonly ClientFormId[]) =>
        context.send(operation, paramsWith(context, kind, chosen, name))
      const whole = await send(forms)
      if (!refused(whole)) return
      const own = await send([])
      // The suite's own request refused too: not the client's form; the checks that send it judge that.
      if (refused(own)) return
      for (const id of forms) {
        const alone = forms.length === 1 ? whole : await send([id])
        if (!refused(alone)) continue
        if (alone !== whole) claimRefusal(whole)
        const form = clientForm(id)
        const clients = clientsSending(id)
        ensure(
          false,
          {
            rule: form.kind === 'contract' ? 'valid-form-refused' : 'client-quirk-refused',
            where: refusalOf(id),
            ...(form.cites === undefined ? {} : { cites: form.cites }),
          },
          `${line} with ${form.label} answered ${alone.response.status}, where the suite's own request was answered ${own.response.status}: ${form.why}. Sent by ${clients.join('; ')}.`,
          alone,
        )
      }
      const contract = forms.every((id) => clientForm(id).kind === 'contract')
      ensure(
        false,
        {
          rule: contract ? 'valid-form-refused' : 'client-quirk-refused',
          where: `the request ${profile.client} sends`,
        },
        `${line} as ${profile.client} sends it (${forms.map((id) => clientForm(id).label).join('; ')}) answered ${whole.response.status}, though each of those alone was accepted and the suite's own request was answered ${own.response.status}.`,
        whole,
      )
    },
  }
}

export const clientFormChecks: Check[] = [
  ...clientProfiles.flatMap((profile) =>
    (['read', 'create'] as const)
      .filter((kind) => applicable(profile.forms, kind).length > 0)
      .map((kind) => clientCheck(profile, kind)),
  ),
  {
    group: 'createPet',
    name: 'refuses POST /pets with no body and no Content-Type (as requests.post(url) sends it): 400 Error',
    writes: true,
    // The body is required (requestBody.required), so leaving it out is the contract's own 400 case. Node
    // sends `Content-Length: 0` with it, as Python requests does; the empty JSON-typed body is negativeBodies'.
    run: async ({ send }) => {
      await send('createPet', { intent: 'invalid', fault: 'body' })
    },
  },
]
