// The response check that a defined body comes as application/json (a +json Error only warns).
import { isJsonMediaType, mediaTypeEssence } from '../../../contract/json-media-type.ts'
import { bodyDefined, bodyWhere, declaredMediaType, type ResponseCheck } from './judging.ts'

/** A body the contract defines comes as the declared application/json. */
export const contentTypeCheck: ResponseCheck = {
  name: 'content type',
  rules: ['content-type'],
  judge(judging) {
    if (!bodyDefined(judging)) return undefined
    const { exchange, recorder, name, violate } = judging
    const { status, headers } = exchange.response
    const contentType = headers['content-type'] ?? ''
    judging.notJsonType = !isJsonMediaType(contentType)
    if (judging.notJsonType) {
      violate(
        'content-type',
        bodyWhere(judging),
        `${name} ${status} has Content-Type "${contentType}"; the contract's bodies are application/json.`,
      )
    } else if (mediaTypeEssence(contentType) !== declaredMediaType) {
      // JSON, but not the type declared (Schemathesis' content_type_conformance). For data a failure: a
      // client dispatching on the declared type does not read it. For an Error, a warning: frameworks send
      // RFC 9457's application/problem+json for errors by default, the Error schema is still held, and
      // every JSON client parses a +json type (RFC 6839 §3.1); the contract's owner may declare it.
      if (status >= 400)
        recorder.warnings.push(
          `Error responses come as ${mediaTypeEssence(contentType)}; the contract declares ${declaredMediaType}: send that, or declare ${mediaTypeEssence(contentType)} in the contract.`,
        )
      else
        violate(
          'content-type',
          bodyWhere(judging),
          `${name} ${status} has Content-Type "${contentType}"; the contract declares ${declaredMediaType} (parameters such as charset are fine).`,
        )
    }
    return undefined
  },
}
