import { describe, expect, it } from 'vitest'
import { createMockApi } from '../../mocks/create-mock-api.ts'
import { diffMarkdown } from '../../scripts/contract-diff-formats.ts'
import { contract } from '../index.ts'
import type { ContractDiff } from './contract-change.ts'
import { diffContracts } from './index.ts'

// A consumer's recording, made on the mock as its tests would make it: a list with a limit, a list by
// status, and two reads of one pet (the deprecated getPet), found and missing.
function recording() {
  let test = ''
  const api = createMockApi({
    seed: 2,
    pets: 4,
    apiKeys: ['k'],
    record: { consumer: 'web-app', testName: () => test },
  })
  const get = (name: string, path: string, query = '') => {
    test = name
    api.handle({ method: 'GET', path, query, headers: { authorization: 'Bearer k' } })
  }
  get('first page', '/v1/pets', 'limit=10')
  get('sold pets', '/v1/pets', 'status=sold')
  get('pet page', '/v1/pets/1')
  get('gone pet', '/v1/pets/999999')
  return { consumer: 'web-app', interactions: api.recorder?.pact().interactions ?? [] }
}

// biome-ignore lint/suspicious/noExplicitAny: the rows edit the document freely, as a person edits YAML.
function diffWith(edit: (document: any) => void): ContractDiff {
  const head = structuredClone(contract.document)
  edit(head)
  head.info.version = '2.0.0'
  return diffContracts(
    { document: contract.document, source: 'base.yaml', version: contract.document.info.version },
    { document: head, source: 'head.yaml', version: '2.0.0' },
    { failOn: 'any', date: '2026-11-27', recordings: [recording()] },
  )
}

const breakingAffected = (diff: ContractDiff) =>
  diff.changes
    .filter((change) => change.breaks.length > 0)
    .map((change) =>
      change.affected?.flatMap(({ consumer, interactions }) => interactions.map((i) => `${consumer}: ${i}`)),
    )

describe('who a breaking change breaks, from the consumers’ recordings (--pact)', () => {
  it('names every recorded call of a removed operation, and says so in the Markdown', () => {
    const diff = diffWith((document) => {
      delete document.paths['/pets/{petId}'].get
    })
    expect(breakingAffected(diff)).toEqual([
      [
        'web-app: pet page — getPet: GET /v1/pets/{petId} → 200',
        'web-app: gone pet — getPet: GET /v1/pets/{petId} → 404',
      ],
    ])
    expect(diffMarkdown(diff)).toContain('breaks 2 interactions of web-app')
  })

  it('names only the requests that send a narrowed parameter', () => {
    const diff = diffWith((document) => {
      document.paths['/pets'].get.parameters[0].schema.maximum = 50
    })
    expect(breakingAffected(diff)).toEqual([['web-app: first page — listPets: GET /v1/pets?limit → 200']])
  })

  it('names every call of an operation that gains a required parameter: none of them sends it', () => {
    const diff = diffWith((document) => {
      document.paths['/pets'].get.parameters.push({
        name: 'shop',
        in: 'query',
        required: true,
        schema: { type: 'string' },
      })
    })
    expect(breakingAffected(diff)).toEqual([
      [
        'web-app: first page — listPets: GET /v1/pets?limit → 200',
        'web-app: sold pets — listPets: GET /v1/pets?status=sold → 200',
      ],
    ])
  })

  it('says when no recorded interaction uses what breaks, which stays breaking', () => {
    const diff = diffWith((document) => {
      // createPet's answer loses its id; the recording never calls createPet.
      document.paths['/pets'].post.responses['201'].content['application/json'].schema = {
        $ref: '#/components/schemas/NewPet',
      }
    })
    expect(breakingAffected(diff)).toEqual([[]])
    expect(diff.verdict.exitCode).toBe(1)
    expect(diffMarkdown(diff)).toContain('no recorded interaction uses it')
  })
})
