// `/__mock/pact` on the HTTP mock: the recording as a Pact file (GET), or written to its folder now (POST).
import { controlPath } from '../core/control-endpoints.ts'
import { errorResponse } from '../core/error-codes.ts'
import { jsonResponse, type MockRequest, type MockResponse } from '../core/mock-http.ts'
import type { PactRecorder } from '../core/pact-recorder.ts'

type Handle = (request: MockRequest) => MockResponse | Promise<MockResponse>

/** The mock's recording and how it is written (`--record DIR`). */
export interface HttpRecording {
  recorder: PactRecorder
  /** Writes the Pact file and returns its path. */
  write(): Promise<string>
}

const pactPath = `${controlPath}/pact`

/**
 * Answers `POST /__mock/pact` before the core: writes the Pact file now (a test run's end, without stopping
 * the mock) and says where. `GET /__mock/pact`, the file as a value, is the core's, in every runtime.
 */
export function withPactEndpoint(handle: Handle, recording: HttpRecording | undefined): Handle {
  return (request) => {
    if (request.path !== pactPath || request.method.toUpperCase() !== 'POST') return handle(request)
    if (!recording)
      return errorResponse(
        'not_found',
        'The mock is not recording: start it with --record DIR --consumer NAME to record a Pact file.',
      )
    return recording.write().then(
      (file) => jsonResponse(200, { file, interactions: recording.recorder.summary().interactions }),
      (error: Error) =>
        errorResponse(
          'internal_error',
          `Failed to write the Pact file (${error.message}): check that its folder can be written.`,
        ),
    )
  }
}
