// Who a change outside the schemas breaks: operations, parameters, bodies and responses added or removed.
import type { Diff } from 'api-smart-diff'
import { isRecord } from '../openapi-document.ts'
import type { Classification } from './classify-change.ts'
import type { LocatedChange } from './locate-change.ts'
import { isAnnotation } from './resolved-schema.ts'

/** The differ's own verdict, for what the rules below do not name: it only knows the clients' side. */
function differVerdict(diff: Diff, what: string): Classification {
  const said = diff.description ? ` (${diff.description.replace(/^\[\w+\] /, '')})` : ''
  if (diff.type === 'breaking')
    return {
      what,
      breaks: ['consumers'],
      reason: `api-smart-diff classes it as breaking for clients${said}.`,
    }
  if (diff.type === 'unclassified')
    return {
      what,
      breaks: ['consumers', 'providers'],
      reason: `api-smart-diff could not classify it${said}: counted as breaking until a person reviews it.`,
    }
  return { what, breaks: [], reason: `api-smart-diff classes it as ${diff.type}${said}.` }
}

/** The last key of a path, which names the field that changed: `required`, `summary`. */
function fieldOf(diff: Diff): string {
  const last = [...diff.path].reverse().find((segment) => typeof segment === 'string')
  return String(last ?? '')
}

/**
 * Classifies a change to an operation's shape: an operation, parameter, request body or response added,
 * removed or made required. A removed operation is judged with its sunset by `classifyRemovedOperation`.
 */
export function classifyOperationChange(located: LocatedChange, diff: Diff): Classification {
  const field = fieldOf(diff)
  const added = diff.action === 'add'
  const removed = diff.action === 'remove'
  switch (located.part) {
    case 'operation':
      return added
        ? { what: 'operation', breaks: [], reason: 'A new operation: no client calls it yet.' }
        : {
            what: 'operation',
            breaks: ['consumers'],
            reason: 'An operation removed: clients that call it fail.',
          }
    case 'parameter': {
      const required = isRecord(diff.after) && diff.after.required === true
      if (added)
        return required
          ? {
              what: 'parameter',
              breaks: ['consumers'],
              reason: 'A new required parameter: clients that leave it out are refused.',
            }
          : {
              what: 'parameter',
              breaks: [],
              reason: 'A new optional parameter: clients that leave it out are still valid.',
            }
      if (removed)
        return {
          what: 'parameter',
          breaks: ['consumers'],
          reason: 'A parameter removed: clients that send it are no longer understood.',
        }
      return differVerdict(diff, 'parameter')
    }
    case 'parameter-field':
    case 'request-body-field':
      if (field === 'required')
        return diff.after === true
          ? {
              what: 'required',
              breaks: ['consumers'],
              reason: 'Made required: clients that leave it out are refused.',
            }
          : {
              what: 'required',
              breaks: [],
              reason: 'Made optional: everything clients sent is still accepted.',
            }
      if (isAnnotation(field))
        return { what: field, breaks: [], reason: 'An annotation: it validates nothing.' }
      if (
        located.location.mediaType &&
        (added || removed) &&
        diff.path[diff.path.length - 1] === located.location.mediaType
      )
        return added
          ? {
              what: 'media type',
              breaks: [],
              reason: 'A new request media type: what clients sent is still accepted.',
            }
          : {
              what: 'media type',
              breaks: ['consumers'],
              reason: 'A request media type removed: clients that send it are refused.',
            }
      return differVerdict(diff, field)
    case 'request-body':
      if (added)
        return isRecord(diff.after) && diff.after.required === true
          ? {
              what: 'request body',
              breaks: ['consumers'],
              reason: 'A new required request body: clients that send none are refused.',
            }
          : {
              what: 'request body',
              breaks: [],
              reason: 'A new optional request body: clients that send none are still valid.',
            }
      return removed
        ? {
            what: 'request body',
            breaks: ['consumers'],
            reason: 'The request body removed: what clients send is no longer read.',
          }
        : differVerdict(diff, 'request body')
    case 'response':
      // A removed status is the servers' loss, not the clients': those never receive it again, while a
      // server that still answers with it no longer conforms.
      return added
        ? {
            what: 'response',
            breaks: [],
            reason: 'A new response status: as api-smart-diff classes it, not breaking.',
          }
        : removed
          ? {
              what: 'response',
              breaks: ['providers'],
              reason: 'A response status removed: servers that still answer with it no longer conform.',
            }
          : differVerdict(diff, 'response')
    case 'response-field':
      if (isAnnotation(field))
        return { what: field, breaks: [], reason: 'An annotation: it validates nothing.' }
      if (
        field === 'content' ||
        (located.location.mediaType && field === located.location.mediaType && !located.location.header)
      )
        return added
          ? {
              what: field === 'content' ? 'response body' : 'media type',
              breaks: [],
              reason: 'A new response body or media type: clients ignore what they do not read.',
            }
          : removed
            ? {
                what: field === 'content' ? 'response body' : 'media type',
                breaks: ['consumers'],
                reason: 'A response body or media type removed: clients that read it get none.',
              }
            : differVerdict(diff, field)
      if (field === 'headers' && added) {
        const required =
          isRecord(diff.after) &&
          Object.values(diff.after).some((header) => isRecord(header) && header.required === true)
        return required
          ? {
              what: 'headers',
              breaks: ['providers'],
              reason: 'New response headers, one required: servers that answer without it no longer conform.',
            }
          : {
              what: 'headers',
              breaks: [],
              reason: 'New optional response headers: clients ignore what they do not read.',
            }
      }
      if (located.location.header && diff.path[diff.path.length - 1] === located.location.header) {
        const required = isRecord(diff.after) && diff.after.required === true
        if (added)
          return required
            ? {
                what: 'header',
                breaks: ['providers'],
                reason: 'A new required response header: servers that answer without it no longer conform.',
              }
            : {
                what: 'header',
                breaks: [],
                reason: 'A new optional response header: clients ignore what they do not read.',
              }
        if (removed)
          return {
            what: 'header',
            breaks: ['consumers'],
            reason: 'A response header removed: clients that read it lose it.',
          }
      }
      if (located.location.header && field === 'required')
        return diff.after === true
          ? {
              what: 'required',
              breaks: ['providers'],
              reason: 'A response header made required: servers that answer without it no longer conform.',
            }
          : {
              what: 'required',
              breaks: ['consumers'],
              reason: 'A response header made optional: clients that read it may not get it.',
            }
      return differVerdict(diff, field)
    case 'operation-field':
      if (field === 'deprecated' || field === 'x-sunset')
        return {
          what: field,
          breaks: [],
          reason: 'A deprecation mark: it breaks nobody today; its sunset is judged apart.',
        }
      if (isAnnotation(field) || field === 'tags')
        return { what: field, breaks: [], reason: 'An annotation: it validates nothing.' }
      if (field === 'operationId')
        return {
          what: field,
          breaks: [],
          reason:
            'A renamed operationId: requests and responses are unchanged; generated clients rename a method.',
        }
      return differVerdict(diff, field)
    default:
      if (isAnnotation(field) || diff.path[0] === 'info' || diff.path[0] === 'tags')
        return { what: field, breaks: [], reason: 'Documentation of the document: it validates nothing.' }
      return differVerdict(diff, field)
  }
}

/**
 * A removed operation: breaking for clients until the sunset its `x-sunset` announced, and the removal
 * the contract promised from that day on (clients were told by the Deprecation and Sunset headers).
 */
export function classifyRemovedOperation(
  sunset: string | undefined,
  deprecated: boolean,
  today: string,
): Classification {
  if (sunset === undefined)
    return {
      what: 'operation',
      breaks: ['consumers'],
      reason: deprecated
        ? 'A deprecated operation removed without a sunset: clients that call it fail, unwarned of when.'
        : 'An operation removed: clients that call it fail.',
    }
  if (today < sunset)
    return {
      what: 'operation',
      breaks: ['consumers'],
      reason: `An operation removed before its sunset, ${sunset} (today is ${today}): clients were promised it until then.`,
    }
  return {
    what: 'operation',
    breaks: [],
    reason: `An operation removed on or after its sunset, ${sunset}, as the contract announced.`,
  }
}
