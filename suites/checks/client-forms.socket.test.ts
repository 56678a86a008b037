import { afterEach, describe, expect, it } from 'vitest'
import { type CheckResult, runCheck } from '../engine/index.ts'
import { inProcessRun } from '../proof/in-process-run.ts'
import { realisticBrokenServers } from '../proof/realistic-broken-servers.ts'
import { referenceServers, serverB, startReference } from '../proof/reference-servers.ts'
import type { StartedServer } from '../proof/serve-reference.ts'
import { clientFormChecks } from './client-forms.ts'

// The client checks in-process against reference servers on real sockets: a correct server accepts every
// form, and a refusal is reported once, at the form that causes it.
let server: StartedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function runAll(started: StartedServer): Promise<CheckResult[]> {
  const run = inProcessRun(started, 'clients-test')
  return Promise.all(clientFormChecks.map((check) => runCheck(check, run)))
}

const brokenServer = (name: string) => {
  const found = realisticBrokenServers.find((candidate) => candidate.name === name)
  if (!found) throw new Error(`No realistic broken server named ${name}.`)
  return found
}

describe('requests as real clients send them', () => {
  it('are all accepted by a correct server that compresses, with one request per client and kind', async () => {
    const compressing = referenceServers.find((reference) => reference.settings.compress)
    if (!compressing) throw new Error('No reference server compresses.')
    server = await compressing.start()
    const results = await runAll(server)
    expect(results.filter((result) => result.outcome !== 'passed').map((result) => result.message)).toEqual(
      [],
    )
    // Each client check sent its one request (the body-less create too): no tracing on a correct server.
    expect(results.map((result) => result.requests)).toEqual(results.map(() => 1))
  })

  it('names the form at the root of a refusal once, whichever clients send it', async () => {
    server = await brokenServer("axios's Accept list answered 406").start()
    const results = await runAll(server)
    const failed = results.filter((result) => result.outcome === 'failed')
    const wheres = new Set(failed.flatMap((result) => result.violations.map((violation) => violation.where)))
    expect([...wheres]).toEqual([
      'an Accept list that names application/json among other types (axios 1.x; axios before 1.0; Spring’s RestTemplate before 5.2)',
    ])
    // The 406 to the client's whole request is that refusal, not an undeclared status of its own.
    expect(failed.flatMap((result) => result.violations.map((violation) => violation.rule))).toEqual(
      failed.map(() => 'valid-form-refused'),
    )
    const axios = failed.find((result) => result.name === 'GET /pets?limit=1 as axios 1.x sends it: accepted')
    expect(axios?.message).toContain('with Accept: application/json, text/plain, */* answered 406')
  })

  it('reports a refused User-Agent by policy, at the one form', async () => {
    server = await brokenServer("curl's User-Agent blocked as a bot").start()
    const results = await runAll(server)
    expect(
      results.flatMap((result) =>
        result.violations.map((violation) => `${violation.rule}: ${violation.where}`),
      ),
    ).toEqual([
      'client-quirk-refused: User-Agent: curl/8.5.0 (curl)',
      'client-quirk-refused: User-Agent: curl/8.5.0 (curl)',
    ])
  })

  it('says nothing of a client when the suite’s own request is refused too', async () => {
    // Every create refused with 400: the create checks' own finding, not a form's.
    server = await startReference(serverB, () => ({ parseNewPet: () => ({ refuse: 'Closed for the day.' }) }))
    const results = await runAll(server)
    const rules = results.flatMap((result) => result.violations.map((violation) => violation.rule))
    expect(rules.filter((rule) => rule === 'valid-form-refused' || rule === 'client-quirk-refused')).toEqual(
      [],
    )
  })
})
