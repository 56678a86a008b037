// The mock's own error codes with their statuses, and the one builder of the contract's Error body.
import type { ApiError } from '../../contract/types.ts'
import { jsonResponse, type MockResponse } from './mock-http.ts'

/**
 * Every `code` the mock sends, with its HTTP status. The contract leaves the set of codes open; these are
 * the mock's own (the README has the table). The conformance suite never relies on them.
 */
export const errorCodes = {
  invalid_parameter: 400,
  invalid_body: 400,
  invalid_prefer: 400,
  session_required: 400,
  unauthorized: 401,
  host_not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  operation_removed: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal_error: 500,
  service_unavailable: 503,
  store_full: 507,
} as const

export type ErrorCode = keyof typeof errorCodes

/** The contract's Error body, with `status` always equal to the HTTP status. */
export function errorResponse(
  code: ErrorCode,
  message: string,
  headers?: Record<string, string>,
): MockResponse {
  const status = errorCodes[code]
  const body: ApiError = { code, message, status }
  return jsonResponse(status, body, headers)
}
