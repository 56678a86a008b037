// Who a change breaks, by the direction values flow: requests from clients, responses from servers.
import type { Diff } from 'api-smart-diff'
import type { Side } from './contract-change.ts'
import type { LocatedChange } from './locate-change.ts'
import { isAnnotation } from './resolved-schema.ts'

/** How a schema change moves the set of values it accepts. */
type Effect = 'narrows' | 'widens' | 'changes' | 'adds-property' | 'removes-property' | 'annotation'

export interface Classification {
  what: string
  breaks: Side[]
  reason: string
}

const upperBounds = new Set([
  'maximum',
  'exclusiveMaximum',
  'maxLength',
  'maxItems',
  'maxProperties',
  'maxContains',
])
const lowerBounds = new Set([
  'minimum',
  'exclusiveMinimum',
  'minLength',
  'minItems',
  'minProperties',
  'minContains',
])
// Keywords whose presence constrains and whose absence does not: added narrows, removed widens.
const constraints = new Set([
  'pattern',
  'multipleOf',
  'const',
  'uniqueItems',
  'not',
  'propertyNames',
  'dependentRequired',
])

function asSet(value: unknown): Set<string> {
  return new Set((Array.isArray(value) ? value : [value]).map((item) => JSON.stringify(item)))
}

/** `narrows` when after ⊂ before, `widens` when after ⊃ before, `changes` otherwise. */
function compareSets(before: unknown, after: unknown): Effect {
  const [a, b] = [asSet(before), asSet(after)]
  const bHasAllA = [...a].every((item) => b.has(item))
  const aHasAllB = [...b].every((item) => a.has(item))
  return bHasAllA ? 'widens' : aHasAllB ? 'narrows' : 'changes'
}

/**
 * What one keyword's change does to the values a schema accepts. `item` is true when the differ names one
 * entry of the keyword's array (`type/1`, `enum/2`, `required/0`), `property` when it names a property.
 */
function schemaEffect(keyword: string, diff: Diff, item: boolean): Effect {
  const { action, before, after } = diff
  if (keyword === 'properties')
    return action === 'add' ? 'adds-property' : action === 'remove' ? 'removes-property' : 'changes'
  if (isAnnotation(keyword)) return 'annotation'
  if (keyword === 'type' || keyword === 'enum') {
    // One more type ('null' added) or enum value accepts more; one fewer accepts less.
    if (item) return action === 'add' ? 'widens' : action === 'remove' ? 'narrows' : 'changes'
    if (action === 'add') return 'narrows'
    if (action === 'remove') return 'widens'
    return compareSets(before, after)
  }
  if (keyword === 'required') {
    if (item) return action === 'add' ? 'narrows' : action === 'remove' ? 'widens' : 'changes'
    if (action === 'add') return 'narrows'
    if (action === 'remove') return 'widens'
    return compareSets(after, before)
  }
  if (keyword === 'nullable') return after === true ? 'widens' : 'narrows'
  if (upperBounds.has(keyword) || lowerBounds.has(keyword)) {
    if (action === 'add') return 'narrows'
    if (action === 'remove') return 'widens'
    const lower = Number(after) < Number(before)
    return upperBounds.has(keyword) === lower ? 'narrows' : 'widens'
  }
  if (
    constraints.has(keyword) ||
    (keyword === 'additionalProperties' && (before === false || after === false))
  ) {
    if (keyword === 'additionalProperties') return after === false ? 'narrows' : 'widens'
    if (action === 'add') return 'narrows'
    if (action === 'remove') return 'widens'
  }
  // format (int64 to int32 changes a generated client's type), default, items, allOf...: a change.
  return 'changes'
}

function quoted(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : JSON.stringify(value)
}

/** Words for what changed: `maximum 100 → 50`, `enum value "sold"`, `property "tag"`, `required "tag"`. */
function describeSchemaChange(keyword: string, diff: Diff, item: boolean, property?: string): string {
  if (property !== undefined) return `property "${property}"`
  if (keyword === 'required' && item) return `required ${quoted(diff.after ?? diff.before)}`
  if (keyword === 'enum' && item) return `enum value ${quoted(diff.after ?? diff.before)}`
  if (keyword === 'type' && item) return `type ${quoted(diff.after ?? diff.before)}`
  if (diff.action === 'replace')
    return `${keyword} ${JSON.stringify(diff.before)} → ${JSON.stringify(diff.after)}`
  return keyword
}

/**
 * Classifies a change inside a request or response schema by the direction its values flow. A request
 * accepting less breaks the clients that sent what it no longer takes; a response that may carry more
 * (a new enum value, `null`, a field no longer required) breaks clients reading it; a response that must
 * carry less or more exactly (a new required field, a lower maximum) breaks servers that answer as before.
 * A changed type or format breaks both: each side's generated types change.
 */
export function classifySchemaChange(located: LocatedChange, diff: Diff): Classification {
  const inside = located.schemaPath ?? []
  const last = inside[inside.length - 1]
  const item = typeof last === 'number'
  const keywordAt = item ? inside.length - 2 : inside.length - 1
  const keyword = String(inside[keywordAt] ?? 'schema')
  const isProperty = inside[keywordAt - 1] === 'properties'
  const effect = isProperty ? schemaEffect('properties', diff, false) : schemaEffect(keyword, diff, item)
  const what = describeSchemaChange(keyword, diff, item, isProperty ? keyword : undefined)
  const request = located.location.in === 'request'
  const where = request ? 'request' : 'response'
  switch (effect) {
    case 'annotation':
      return { what, breaks: [], reason: 'An annotation: it validates nothing.' }
    case 'adds-property':
      return request
        ? {
            what,
            breaks: [],
            reason: 'A new optional request field: clients that leave it out are still valid.',
          }
        : { what, breaks: [], reason: 'A new optional response field: clients ignore what they do not read.' }
    case 'removes-property':
      return {
        what,
        breaks: ['consumers'],
        reason: request
          ? 'A request field removed: clients that send it are no longer understood.'
          : 'A response field removed: clients that read it lose it.',
      }
    case 'narrows':
      return request
        ? {
            what,
            breaks: ['consumers'],
            reason:
              keyword === 'required'
                ? 'A new required request field: clients that leave it out are refused.'
                : 'A narrowed request value: clients may send what the server now refuses.',
          }
        : {
            what,
            breaks: ['providers'],
            reason:
              keyword === 'required'
                ? 'A new required response field: servers that answer without it no longer conform.'
                : 'A narrowed response value: servers may answer with what is no longer allowed.',
          }
    case 'widens':
      return request
        ? { what, breaks: [], reason: 'A widened request value: everything clients sent is still accepted.' }
        : {
            what,
            breaks: ['consumers'],
            reason:
              keyword === 'required'
                ? 'A response field no longer required: clients that rely on it may not get it.'
                : 'A widened response value: clients may receive what they do not expect (a new value, null).',
          }
    default:
      return {
        what,
        breaks: ['consumers', 'providers'],
        reason: `A changed ${keyword} in the ${where}: both sides' code was written for the old one.`,
      }
  }
}
