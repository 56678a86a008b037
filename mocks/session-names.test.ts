import { describe, expect, it } from 'vitest'
import { mockOriginFrom, mockRunId, mockSessionName } from './session-names.ts'
import { unseenRequestsWarning } from './unseen-requests.ts'

describe('session names per run', () => {
  it('names a worker’s session run-<id>-worker-<n>, or worker-<n> without a run', () => {
    expect(mockSessionName(3, 'ci-1234')).toBe('run-ci-1234-worker-3')
    expect(mockSessionName('0', '')).toBe('worker-0')
    expect(mockSessionName(7)).toBe('worker-7')
    // The longest run id and worker index still make a name the mock accepts (64 characters at most).
    expect(mockSessionName(999_999, 'r'.repeat(40))).toMatch(/^[A-Za-z0-9._~-]{1,64}$/)
  })

  it('refuses a run id or worker the mock would refuse as a session name, saying what is allowed', () => {
    expect(() => mockSessionName(1, 'has space')).toThrow(/1 to 40 letters, digits/)
    expect(() => mockSessionName(1, 'r'.repeat(41))).toThrow(/1 to 40 letters, digits/)
    expect(() => mockSessionName('x' as unknown as number)).toThrow(/A worker index is a whole number/)
  })

  it('makes one run id and leaves it in the environment for the workers started after, keeping a given one', () => {
    const env: Record<string, string | undefined> = {}
    const id = mockRunId(env)
    expect(id).toMatch(/^[0-9a-f]{8}$/)
    expect(env.ANIMAL_STORE_MOCK_RUN).toBe(id)
    expect(mockRunId(env)).toBe(id)
    expect(mockRunId({ ANIMAL_STORE_MOCK_RUN: 'nightly-42' })).toBe('nightly-42')
    expect(mockRunId({})).not.toBe(id)
  })

  it('reads the HTTP mock’s origin from ANIMAL_STORE_MOCK_URL, a base path allowed, without echoing a bad value', () => {
    expect(mockOriginFrom({ ANIMAL_STORE_MOCK_URL: 'http://127.0.0.1:4010/v1' })).toBe(
      'http://127.0.0.1:4010',
    )
    expect(mockOriginFrom({})).toBeUndefined()
    expect(() => mockOriginFrom({ ANIMAL_STORE_MOCK_URL: 'secret-token' })).toThrow(
      /^ANIMAL_STORE_MOCK_URL is not a URL: set it to the HTTP mock's/,
    )
    expect(() => mockOriginFrom({ ANIMAL_STORE_MOCK_URL: 'secret-token' })).not.toThrow(/secret-token/)
  })
})

describe('the warning of a test whose mock saw no request', () => {
  it('points a test whose browser sent no API request to the HTTP mock for server-side fetches', () => {
    expect(unseenRequestsWarning(0)).toMatch(/page\.route .* sees only what the browser sends/)
    expect(unseenRequestsWarning(0)).toContain('httpMockTest')
  })

  it('stays quiet once the browser sent an API request', () => {
    expect(unseenRequestsWarning(1)).toBeUndefined()
  })
})
