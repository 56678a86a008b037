import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { validateXML } from 'xmllint-wasm'
import { parseExactJson, stringifyExactJson } from '../../contract/exact-json.ts'
import type { MockRequest, MockResponse } from '../../mocks/core/mock-http.ts'
import { createMockApi } from '../../mocks/create-mock-api.ts'
import { serveHttp } from '../../mocks/http/serve-http.ts'
import type { Finding } from '../judging/findings.ts'
import { runConformanceCommand } from './conformance-command.ts'

// A backend team's second day, over real sockets through the command users run: records stored wrong
// before the run, a server that clamps limit (the suite's policy, not the contract's word), the JUnit file
// a CI reads, and each finding's curl line run against the server it was found on.
const apiKey = 'second-day-key'
const junitSchema = readFileSync(new URL('./junit.xsd', import.meta.url), 'utf8')

type Handle = (request: MockRequest) => MockResponse

/** Correct code over a store that already holds pets 3 and 7 with a status the contract does not allow. */
function storedWrong(): Handle {
  const handle = createMockApi({ apiKeys: [apiKey], pets: 30 }).handle
  const spoil = (pet: unknown) =>
    typeof pet === 'object' && pet !== null && [3, 7].includes((pet as { id?: unknown }).id as number)
      ? { ...pet, status: 'adopted' }
      : pet
  return (request) => {
    const response = handle(request)
    if (request.method !== 'GET' || response.status !== 200 || response.body === undefined) return response
    const body = parseExactJson(response.body)
    return { ...response, body: stringifyExactJson(Array.isArray(body) ? body.map(spoil) : spoil(body)) }
  }
}

/** Correct but for limit: above 100 it is clamped to 100, as DRF's max_limit and Spring's maxPageSize do. */
function clampsLimit(): Handle {
  const handle = createMockApi({ apiKeys: [apiKey], pets: 30 }).handle
  return (request) => {
    const params = new URLSearchParams(request.query)
    const limit = params.get('limit')
    if (request.method !== 'GET' || limit === null || !/^\d+$/.test(limit) || Number(limit) <= 100)
      return handle(request)
    params.set('limit', '100')
    return handle({ ...request, query: params.toString() })
  }
}

async function check(handle: Handle, extra: string[] = []) {
  const http = await serveHttp(handle, { port: 0, host: '127.0.0.1' })
  const run = await runConformanceCommand(['--base-url', `${http.origin}/v1`, '--seed', '7', ...extra], {
    env: { CONFORMANCE_API_KEY: apiKey },
  })
  return { ...run, http }
}

/** Runs a finding's curl line in sh with the key in the environment; resolves to the status curl saw. */
function runCurl(command: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(
      'sh',
      ['-c', command],
      { env: { ...process.env, CONFORMANCE_API_KEY: apiKey }, timeout: 20_000 },
      (error, stdout) => {
        if (error) return reject(error)
        const status = /^HTTP\/[\d.]+ (\d{3})/m.exec(stdout)?.[1]
        return status ? resolve(Number(status)) : reject(new Error(`no status line in:\n${stdout}`))
      },
    )
  })
}

const exampleStatus = (finding: Finding) => Number(/^< (\d{3})/m.exec(finding.example ?? '')?.[1])

async function junitOf(reportDir: string) {
  const xml = readFileSync(join(reportDir, 'junit.xml'), 'utf8')
  const validation = await validateXML({
    xml: [{ fileName: 'junit.xml', contents: xml }],
    schema: [{ fileName: 'junit.xsd', contents: junitSchema }],
  })
  return { xml, validation }
}

describe('a backend team’s second day', () => {
  it('reports records stored wrong before the run once, by id, with one JUnit failure and a curl line that reproduces it', async () => {
    const { code, output, report, reportDir, http } = await check(storedWrong())
    try {
      expect(code, output).toBe(1)
      const findings = report?.findings ?? []
      expect(
        findings.map((finding) => `${finding.rule}: ${finding.where}`),
        output,
      ).toEqual(['stored-record: stored records: status must be one of available, pending, sold'])
      const [finding] = findings as [Finding]
      expect(finding.records).toEqual(expect.arrayContaining(['3', '7']))
      expect(finding.message).toContain('stored before this run')
      expect(finding.message).toContain('fix or migrate')
      expect(finding.message).toMatch(/pet (3|7) with status "adopted"/)
      expect(finding.cites).toBe('/components/schemas/PetStatus')
      expect(output).not.toContain('fresh server')
      expect(output).not.toMatch(/\/\d+\/status/)
      // One failing check; every other check that read a list holding the records judged the rest.
      expect(report?.checks.filter((one) => one.outcome === 'failed').map((one) => one.name)).toHaveLength(1)
      expect(finding.affected.length).toBeGreaterThan(0)

      const { xml, validation } = await junitOf(reportDir)
      expect(validation.errors, xml.slice(0, 2000)).toEqual([])
      expect(validation.valid).toBe(true)
      const failures = [...xml.matchAll(/<failure message="([^"]*)"/g)].map((match) => match[1])
      expect(failures).toHaveLength(1)
      expect(failures[0]?.startsWith(`${finding.id} [stored-record]`)).toBe(true)
      expect(xml).toContain(`<system-out>affected by ${finding.id} [stored-record]`)

      expect(finding.replay).toContain('"$CONFORMANCE_API_KEY"')
      expect(finding.replay).not.toContain(apiKey)
      expect(await runCurl(finding.replay ?? '')).toBe(exampleStatus(finding))
    } finally {
      await http.close()
    }
  })

  it('labels a clamped limit=101 as policy, naming its switch, and passes the server with --policy off', async () => {
    const strict = await check(clampsLimit())
    try {
      expect(strict.code, strict.output).toBe(1)
      const findings = strict.report?.findings ?? []
      expect(findings.map((finding) => finding.rule)).toEqual(['invalid-not-refused'])
      const [finding] = findings as [Finding]
      expect(finding.kind).toBe('policy')
      expect(finding.turnOff).toBe('--policy off')
      expect(finding.cites).toBe('/paths/~1pets/get/parameters/0/schema')
      expect(finding.message).toContain('the contract says limit: type integer, minimum 1, maximum 100')
      expect(strict.output).toContain('policy: the contract is silent here')
      expect(strict.output).toContain('--policy off')
      for (const file of ['summary.md', 'junit.xml', 'conformance.html'])
        expect(readFileSync(join(strict.reportDir, file), 'utf8'), file).toContain('--policy off')
      const { validation } = await junitOf(strict.reportDir)
      expect(validation.valid).toBe(true)
      for (const one of findings) expect(await runCurl(one.replay ?? '')).toBe(exampleStatus(one))
    } finally {
      await strict.http.close()
    }
    const off = await check(clampsLimit(), ['--policy', 'off'])
    try {
      expect(off.report?.findings, off.output).toEqual([])
      expect(off.code, off.output).toBe(0)
      expect(
        off.report?.warnings.some((warning) => warning.startsWith('[policy invalid-not-refused, off]')),
      ).toBe(true)
    } finally {
      await off.http.close()
    }
  })
})
