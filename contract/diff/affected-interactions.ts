// Which recorded consumer interactions (Pact files) each change touches: who a breaking change really breaks.
import type { ContractChange } from './contract-change.ts'

/** A recorded interaction as the diff reads it: the request and response a consumer relied on. */
interface RecordedInteraction {
  description: string
  request: {
    method: string
    path: string
    query?: Record<string, string[]>
    headers?: Record<string, string[]>
    body?: { content?: unknown }
    generators?: { path?: { expression?: string } }
  }
  response: { status: number; body?: { content?: unknown } }
}

/** One consumer's recording (`--pact FILE`). */
export interface ConsumerRecording {
  consumer: string
  interactions: readonly RecordedInteraction[]
}

/** The interactions a change touches, by consumer. */
export interface Affected {
  consumer: string
  interactions: string[]
}

/**
 * For each change, the recorded interactions it touches: those of its operation (method and path
 * template) that use what changed. A parameter the request sent, a body the request carried, a response
 * of the changed status holding a value at the changed pointer; a change to the operation or the document
 * as a whole touches all its interactions. Pure.
 */
export function affectedInteractions(
  changes: readonly ContractChange[],
  recordings: readonly ConsumerRecording[],
): Map<ContractChange, Affected[]> {
  const affected = new Map<ContractChange, Affected[]>()
  for (const change of changes) {
    const byConsumer: Affected[] = []
    for (const { consumer, interactions } of recordings) {
      const touched = interactions.filter((interaction) => touches(change, interaction))
      if (touched.length > 0)
        byConsumer.push({ consumer, interactions: touched.map((interaction) => interaction.description) })
    }
    affected.set(change, byConsumer)
  }
  return affected
}

function touches(change: ContractChange, interaction: RecordedInteraction): boolean {
  const { location, operation } = change
  if (location.in === 'document') return true
  if (!operation || !sameOperation(operation, interaction)) return false
  if (location.in === 'operation') return true
  const { request, response } = interaction
  if (location.in === 'request') {
    const parameter = location.parameter
    // A parameter added (a required one breaks) touches every call: none of them sends it.
    if (parameter && change.action === 'added') return true
    if (parameter?.in === 'query') return Object.hasOwn(request.query ?? {}, parameter.name)
    if (parameter?.in === 'header')
      return Object.keys(request.headers ?? {}).some(
        (name) => name.toLowerCase() === parameter.name.toLowerCase(),
      )
    if (parameter) return true
    // A body change (a new required member included) touches every request that sends a body.
    if (request.body === undefined) return false
    return (
      change.action === 'added' ||
      location.pointer === undefined ||
      holds(request.body.content, location.pointer)
    )
  }
  if (location.status !== undefined && !statusMatches(location.status, response.status)) return false
  if (location.pointer === undefined || change.action === 'added') return true
  return holds(response.body?.content, location.pointer)
}

function sameOperation(
  operation: NonNullable<ContractChange['operation']>,
  interaction: RecordedInteraction,
): boolean {
  if (interaction.request.method.toUpperCase() !== operation.method.toUpperCase()) return false
  // The recorded path, or the template a provider state fills (`/v1/pets/${id}`).
  const path = interaction.request.generators?.path?.expression ?? interaction.request.path
  const template = new RegExp(
    `^${operation.requestPath
      .split(/\{[^}]+\}/)
      .map(escapeRegExp)
      .join('[^/]+')}$`,
  )
  return template.test(path) || template.test(interaction.request.path)
}

function statusMatches(declared: string, status: number): boolean {
  if (declared === 'default') return true
  if (/^[1-5]XX$/i.test(declared)) return String(status)[0] === declared[0]
  return declared === String(status)
}

/** Whether the value holds something at a JSON Pointer (`*` for any item of an array). */
function holds(value: unknown, pointer: string): boolean {
  const segments = pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
  const walk = (at: unknown, index: number): boolean => {
    if (index === segments.length) return at !== undefined
    const segment = segments[index] ?? ''
    if (Array.isArray(at))
      return segment === '*' ? at.some((item) => walk(item, index + 1)) : walk(at[Number(segment)], index + 1)
    if (typeof at !== 'object' || at === null) return false
    return Object.hasOwn(at, segment) && walk((at as Record<string, unknown>)[segment], index + 1)
  }
  return walk(value, 0)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
}
