// Compares two contracts: the differ finds the changes, our rules say whom each breaks, then the findings.
// Why api-smart-diff and rules of our own: docs/decisions/contract-diff-by-direction.md.
import { apiDiff, type Diff } from 'api-smart-diff'
import { isRecord, type OpenApiDocument, pointerSegment } from '../openapi-document.ts'
import { affectedInteractions, type ConsumerRecording } from './affected-interactions.ts'
import { classifySchemaChange } from './classify-change.ts'
import { classifyOperationChange, classifyRemovedOperation } from './classify-operation-change.ts'
import type { ContractChange, ContractDiff, DiffSide, FailOn } from './contract-change.ts'
import { deprecationFindings, sunsetOf } from './deprecation-findings.ts'
import { basePathOf, type DiffPath, type LocatedChange, locateChange, valueAlong } from './locate-change.ts'
import { canonicalJson, isAnnotation, resolvedSchema } from './resolved-schema.ts'
import { type Changelog, versionFindings } from './version-findings.ts'

export interface DiffInput extends DiffSide {
  document: OpenApiDocument
}

export interface DiffOptions {
  failOn: FailOn
  /** Today, YYYY-MM-DD: sunsets before it have passed. */
  date: string
  changelog?: Changelog | undefined
  /** Consumers' recorded interactions (`--pact`): each change then names those it touches. */
  recordings?: readonly ConsumerRecording[] | undefined
}

/**
 * The changes from BASE to HEAD, each located in its operation and classified by whom it breaks, the
 * findings against HEAD (deprecation marks, version, changelog), and the exit code for `failOn`.
 * Pure: the command reads the files.
 * @example diffContracts(base, head, { failOn: 'any', date: '2026-11-27' }).verdict.exitCode // 0 or 1
 */
export function diffContracts(base: DiffInput, head: DiffInput, options: DiffOptions): ContractDiff {
  const located = differences(base.document, head.document).map((diff) => ({
    diff,
    at: locateChange(diff.path, base.document, head.document, diff.after ?? diff.before),
  }))
  const changes = [
    ...serverPathChange(base.document, head.document),
    ...restructured(located, base.document, head.document),
    ...withoutEchoes(resolvedAgain(located, base.document, head.document)).map(({ diff, at }) =>
      classified(diff, at, options.date),
    ),
  ]
  if (options.recordings) {
    const affected = affectedInteractions(changes, options.recordings)
    for (const change of changes) change.affected = affected.get(change) ?? []
  }
  const counts = (side: 'consumers' | 'providers') =>
    changes.filter((change) => change.breaks.includes(side)).length
  const counted = changes.filter((change) =>
    change.breaks.some((side) => options.failOn === 'any' || side === options.failOn),
  ).length
  const findings = [
    ...deprecationFindings(base.document, head.document),
    ...versionFindings(base, head, counted, options.changelog),
  ]
  return {
    format: 'animal-store-contract-diff/1',
    base: { source: base.source, version: base.version },
    head: { source: head.source, version: head.version },
    date: options.date,
    failOn: options.failOn,
    changes,
    findings,
    verdict: {
      consumers: counts('consumers'),
      providers: counts('providers'),
      counted,
      exitCode: counted > 0 || findings.length > 0 ? 1 : 0,
    },
  }
}

/**
 * The differ's changes under `paths` and at the top of the document. Components are left out: the differ
 * also reports each one where an operation uses it, with its $refs followed, and a component no operation
 * uses breaks nobody. A path added or removed whole becomes one change per operation.
 */
function differences(base: OpenApiDocument, head: OpenApiDocument): Diff[] {
  return quietly(() => apiDiff(structuredClone(base), structuredClone(head))).flatMap((diff) => {
    if (diff.path[0] === 'components' || diff.path[0] === 'servers') return []
    const item = diff.path.length === 2 && diff.path[0] === 'paths' ? (diff.before ?? diff.after) : undefined
    if (!isRecord(item)) return [diff]
    return Object.keys(item)
      .filter((key) => !key.startsWith('x-') && isRecord(item[key]) && key !== 'parameters')
      .map((method) => ({
        ...diff,
        path: [...diff.path, method],
        ...(diff.before === undefined ? {} : { before: item[method] }),
        ...(diff.after === undefined ? {} : { after: item[method] }),
      }))
  })
}

/** A change to a schema's annotation (`description`, `example`, `x-*`), never to what it validates. */
function isAnnotationChange(at: LocatedChange): boolean {
  const keyword = [...(at.schemaPath ?? [])].reverse().find((segment) => typeof segment === 'string')
  return keyword !== undefined && isAnnotation(keyword) && at.schemaPath?.at(-2) !== 'properties'
}

/**
 * The servers as far as a request sees them: the path prefix every request path starts with (`/v1`). The
 * differ calls a changed server URL an annotation; a new prefix breaks clients that call the old one and
 * servers that serve it. Hosts, descriptions and variables' defaults are deployment facts, and are left out.
 */
function serverPathChange(base: OpenApiDocument, head: OpenApiDocument): ContractChange[] {
  const [before, after] = [basePathOf(base), basePathOf(head)]
  if (before === after) return []
  return [
    {
      action: 'changed',
      what: `server path prefix ${JSON.stringify(before)} → ${JSON.stringify(after)}`,
      operation: null,
      location: { in: 'document', documentPointer: '/servers/0/url' },
      before,
      after,
      breaks: ['consumers', 'providers'],
      reason: 'A new path prefix for every operation: clients call the old paths, servers serve them.',
    },
  ]
}

/**
 * The schema changes found again between the schemas as they validate ($refs followed, allOf merged), so
 * that a schema both respelled and changed shows only its change, not the differ's view of the spelling.
 * A schema that resolves the same is left to `restructured`; annotation edits, which resolving drops, and
 * a schema added or removed whole stay as the differ found them.
 */
function resolvedAgain(
  located: { diff: Diff; at: LocatedChange }[],
  base: OpenApiDocument,
  head: OpenApiDocument,
): { diff: Diff; at: LocatedChange }[] {
  const roots = new Map<string, { diff: Diff; at: LocatedChange }[]>()
  const kept: { diff: Diff; at: LocatedChange }[] = []
  for (const entry of located) {
    if (!entry.at.schemaRoot || isAnnotationChange(entry.at)) kept.push(entry)
    else
      roots.set(schemaKey(entry.at.schemaRoot), [...(roots.get(schemaKey(entry.at.schemaRoot)) ?? []), entry])
  }
  for (const entries of roots.values()) {
    const root = entries[0]?.at.schemaRoot ?? []
    const [before, after] = [valueAlong(base, root), valueAlong(head, root)]
    if (before === undefined || after === undefined) {
      kept.push(...entries)
      continue
    }
    const [resolvedBefore, resolvedAfter] = [resolvedSchema(base, before), resolvedSchema(head, after)]
    if (canonicalJson(resolvedBefore) === canonicalJson(resolvedAfter)) continue
    for (const diff of quietly(() =>
      apiDiff(structuredClone(resolvedBefore), structuredClone(resolvedAfter)),
    )) {
      const path = [...root, ...diff.path]
      kept.push({ diff: { ...diff, path }, at: locateChange(path, base, head, diff.after ?? diff.before) })
    }
  }
  return kept
}

/**
 * Runs the differ on copies, without its console. It rewrites the documents it is given as it normalises
 * them ($refs into allOf), and ours must stay as written for locating and resolving; and a rule of its that
 * throws (a `required` entry of an allOf member) is printed to stderr as "Classification Rule error" and
 * the change left unclassified, which our rules classify.
 */
function quietly<T>(run: () => T): T {
  const error = console.error
  console.error = () => {}
  try {
    return run()
  } finally {
    console.error = error
  }
}

function schemaKey(path: DiffPath): string {
  return JSON.stringify(path)
}

/** True when the schema a change sits in resolves, in both documents, to the same validating schema. */
function sameSchemaUnder(at: LocatedChange, base: OpenApiDocument, head: OpenApiDocument): boolean {
  if (!at.schemaRoot) return false
  const [before, after] = [valueAlong(base, at.schemaRoot), valueAlong(head, at.schemaRoot)]
  return (
    before !== undefined &&
    after !== undefined &&
    canonicalJson(resolvedSchema(base, before)) === canonicalJson(resolvedSchema(head, after))
  )
}

/**
 * A $ref moved or inlined, an allOf flattened: the differ reports the spelling's changes, which break
 * nobody when the schema resolves the same. One change per such schema says so; annotation edits inside it
 * are classified on their own with the rest.
 */
function restructured(
  located: { diff: Diff; at: LocatedChange }[],
  base: OpenApiDocument,
  head: OpenApiDocument,
): ContractChange[] {
  const roots = new Map<string, LocatedChange>()
  for (const { at } of located) {
    if (!at.schemaRoot || !sameSchemaUnder(at, base, head)) continue
    if (isAnnotationChange(at)) continue
    roots.set(schemaKey(at.schemaRoot), at)
  }
  return [...roots.values()].map((at) => ({
    action: 'changed',
    what: 'schema spelling ($ref, allOf)',
    operation: at.operation,
    location: { ...at.location, pointer: '', schemaPointer: '' },
    breaks: [],
    reason: 'Restructured: with its $refs followed and allOf merged, the schema is the same as before.',
  }))
}

/**
 * Leaves out changes that repeat another of the same schema: a property added and made required is one
 * new required field (the `required` change says it); a property removed with its `required` entry is one
 * removed field; a `format` that goes with its changed `type` is part of that change.
 */
function withoutEchoes(located: { diff: Diff; at: LocatedChange }[]): { diff: Diff; at: LocatedChange }[] {
  const keyOf = ({ at }: { at: LocatedChange }, tail: DiffPath) =>
    JSON.stringify([...(at.schemaRoot ?? []), ...tail])
  const present = new Set<string>()
  for (const entry of located) {
    const inside = entry.at.schemaPath ?? []
    const n = inside.length
    if (inside[n - 2] === 'required')
      present.add(
        `${entry.diff.action}:${keyOf(entry, [...inside.slice(0, n - 2), 'properties', String(entry.diff.after ?? entry.diff.before)])}`,
      )
    if (inside[n - 1] === 'type') present.add(`type:${keyOf(entry, inside.slice(0, n - 1))}`)
  }
  return located.filter((entry) => {
    const inside = entry.at.schemaPath ?? []
    const n = inside.length
    if (inside[n - 2] === 'properties' && entry.diff.action === 'add')
      return !present.has(`add:${keyOf(entry, inside)}`)
    if (inside[n - 2] === 'required' && entry.diff.action === 'remove') {
      const property = [...inside.slice(0, n - 2), 'properties', String(entry.diff.before)]
      return !located.some(
        (other) =>
          other.diff.action === 'remove' &&
          keyOf(other, other.at.schemaPath ?? []) === keyOf(entry, property),
      )
    }
    if (inside[n - 1] === 'format') return !present.has(`type:${keyOf(entry, inside.slice(0, n - 1))}`)
    return true
  })
}

function classified(diff: Diff, at: LocatedChange, today: string): ContractChange {
  const removedOperation = at.part === 'operation' && diff.action === 'remove'
  const sunset = removedOperation ? sunsetOf(diff.before) : undefined
  const verdict = removedOperation
    ? classifyRemovedOperation(sunset, isRecord(diff.before) && diff.before.deprecated === true, today)
    : at.part === 'schema'
      ? classifySchemaChange(at, diff)
      : classifyOperationChange(at, diff)
  const inside = at.schemaPath ?? []
  // A `required` entry is about the property it names: point at that field, as a recorded body has it.
  const location =
    inside[inside.length - 2] === 'required' && at.location.pointer !== undefined
      ? {
          ...at.location,
          pointer: `${at.location.pointer}/${pointerSegment(String(diff.after ?? diff.before))}`,
        }
      : at.location
  return {
    action: diff.action === 'add' ? 'added' : diff.action === 'remove' ? 'removed' : 'changed',
    what: verdict.what,
    operation: at.operation,
    location,
    ...(diff.before === undefined || removedOperation ? {} : { before: diff.before }),
    ...(diff.after === undefined || (at.part === 'operation' && diff.action === 'add')
      ? {}
      : { after: diff.after }),
    breaks: verdict.breaks,
    reason: verdict.reason,
    ...(sunset === undefined ? {} : { sunset }),
  }
}
