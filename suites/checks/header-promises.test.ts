import { describe, expect, it } from 'vitest'
import type { Exchange } from '../judging/index.ts'
import { allowedMethods, keepAllowPromise } from './allow-promises.ts'
import { linkTargets, resolveNamed } from './header-urls.ts'
import { declaredPaths } from './undeclared-methods.ts'

describe('the URL a header names', () => {
  const sentTo = 'http://127.0.0.1:4010/v1/pets'

  it('resolves a path, or a reference relative to the request, on the server’s origin', () => {
    const at = (value: string) => {
      const named = resolveNamed(value, sentTo)
      return named.ok ? named.url.href : named.why
    }
    expect(at('/v1/pets/12')).toBe('http://127.0.0.1:4010/v1/pets/12')
    expect(at('pets/12')).toBe('http://127.0.0.1:4010/v1/pets/12')
    expect(at('http://127.0.0.1:4010/v1/pets/12')).toBe('http://127.0.0.1:4010/v1/pets/12')
  })

  it('never takes one on another origin, which the suite does not send to', () => {
    for (const value of [
      'https://evil.example/v1/pets/12',
      '//evil.example/pets',
      'http://127.0.0.1:4011/v1/pets/1',
    ])
      expect(resolveNamed(value, sentTo)).toMatchObject({
        ok: false,
        why: expect.stringMatching(/another origin/),
      })
  })

  it('reads the paging and self links of a Link header, not the documents it points people to', () => {
    expect(
      linkTargets(
        '</v1/pets?limit=1&after=9>; rel="next", <https://docs.example/deprecation>; rel="deprecation"; type="text/html", </v1/pets?limit=1>; rel=first, <https://docs.example/sunset>; rel=sunset',
      ),
    ).toEqual([
      { rel: 'next', target: '/v1/pets?limit=1&after=9' },
      { rel: 'first', target: '/v1/pets?limit=1' },
    ])
  })

  it('tries each link target once, and a few at most', () => {
    const many = Array.from({ length: 10 }, (_, page) => `</v1/pets?page=${page % 5}>; rel="next"`).join(', ')
    expect(linkTargets(many).map((link) => link.target)).toEqual([
      '/v1/pets?page=0',
      '/v1/pets?page=1',
      '/v1/pets?page=2',
    ])
  })
})

describe('an Allow header held to how its path answers', () => {
  const pets = declaredPaths.find((path) => path.path === '/pets')
  if (!pets) throw new Error('the contract declares /pets')
  const answer = (method: string, status: number, allow?: string): Exchange => ({
    operation: 'listPets',
    request: { method, url: 'http://127.0.0.1:1/v1/pets', headers: { authorization: 'Bearer k' } },
    response: { status, headers: allow === undefined ? {} : { allow }, body: '' },
    violations: [],
    bodyUsable: true,
  })
  const judged = (...answers: Exchange[]) => {
    const context = { methodAnswers: new Map() }
    for (const one of answers) keepAllowPromise(context, one, pets)
    return answers.map((one) => one.violations.map((violation) => violation.where))
  }

  it('reads the methods as routers compare them', () => {
    expect(allowedMethods(' GET,head ,, POST')).toEqual(['GET', 'HEAD', 'POST'])
  })

  it('passes Allow that lists what the contract declares and nothing the path refuses', () => {
    expect(
      judged(
        answer('HEAD', 200),
        answer('OPTIONS', 200, 'GET, HEAD, POST, OPTIONS'),
        answer('PUT', 405, 'GET, HEAD, POST, OPTIONS'),
      ),
    ).toEqual([[], [], []])
  })

  it('reports a 405 whose Allow lists the very method it refuses', () => {
    expect(judged(answer('HEAD', 405, 'GET, HEAD, POST'))).toEqual([['Allow lists methods the path refuses']])
  })

  it('reports a method an earlier Allow listed that the path then refuses, on the refusal', () => {
    expect(judged(answer('OPTIONS', 200, 'GET, POST, DELETE'), answer('DELETE', 405, 'GET, POST'))).toEqual([
      [],
      ['Allow lists methods the path refuses'],
    ])
  })

  it('reports an Allow that leaves out a method the contract declares there', () => {
    expect(judged(answer('PUT', 405, 'GET'))).toEqual([['Allow leaves out methods the contract declares']])
  })

  it('holds no answer sent without the key, which may be refused before the resource is known', () => {
    const keyless = answer('HEAD', 405, 'GET, HEAD')
    keyless.request.headers = {}
    expect(judged(keyless)).toEqual([[]])
  })
})
