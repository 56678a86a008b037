import { describe, expect, it } from 'vitest'
import { networkOptionsFrom, networkSecrets, parseHeader } from './network-options.ts'

const read = (files: Record<string, string>) => (file: string) => {
  const text = files[file]
  if (text === undefined) throw Object.assign(new Error('no such file'), { code: 'ENOENT' })
  return text
}

describe('--header', () => {
  it('reads Name: value, the name lower-cased', () => {
    expect(parseHeader('X-Tenant:  acme ')).toEqual({ header: ['x-tenant', 'acme'] })
  })

  it.each([
    'Authorization: Bearer k',
    'content-type: text/plain',
    'no colon',
    ': empty name',
    'x-bad: a\r\nb',
  ])('refuses %s', (text) => {
    expect(parseHeader(text)).toHaveProperty('problem')
  })
})

it('refuses a header typed without its colon without quoting it back: the value is a secret', () => {
  const refused = parseHeader('x-token sk_live_abcd1234')
  expect(refused).toEqual({ problem: "--header takes 'Name: value'; got an argument without a colon." })
})

describe('the secrets the network layer knows', () => {
  it('lists proxy credentials, as written, decoded and in the Basic form the proxy receives', () => {
    const secrets = networkSecrets({ proxy: 'http://us%40er:p%3Ass@proxy:3128' }, {})
    expect(secrets).toEqual(
      expect.arrayContaining([
        'us%40er',
        'p%3Ass',
        'us@er',
        'p:ss',
        Buffer.from('us@er:p:ss').toString('base64'),
      ]),
    )
  })

  it('lists proxy credentials from the environment, in either case', () => {
    expect(networkSecrets({}, { https_proxy: 'http://u:envpass@proxy' })).toContain('envpass')
  })

  it('treats extra header values as secrets unless the name is on the public list', () => {
    const secrets = networkSecrets({
      headers: [
        ['x-api-key', 'gw-key'],
        ['accept-language', 'fr'],
      ],
    })
    expect(secrets).toContain('gw-key')
    expect(secrets).not.toContain('fr')
  })

  it('lists the key’s passphrase', () => {
    expect(networkSecrets({ passphrase: 'pp' })).toContain('pp')
  })
})

describe('network flags', () => {
  it('reads files, the passphrase from the variable named, and headers in order', () => {
    const got = networkOptionsFrom(
      {
        'rate-limit': '600/m',
        cert: 'c.pem',
        key: 'k.pem',
        'key-passphrase-env': 'PASS',
        header: ['X-A: 1', 'X-B: 2'],
      },
      { PASS: 'secret' },
      read({ 'c.pem': '-----BEGIN CERTIFICATE-----', 'k.pem': '-----BEGIN PRIVATE KEY-----' }),
    )
    expect(got).toEqual({
      options: {
        rateLimit: 10,
        cert: '-----BEGIN CERTIFICATE-----',
        key: '-----BEGIN PRIVATE KEY-----',
        passphrase: 'secret',
        headers: [
          ['x-a', '1'],
          ['x-b', '2'],
        ],
      },
    })
  })

  it.each([
    [{ 'rate-limit': 'lots' }, /--rate-limit takes/],
    [{ proxy: 'socks5://p:1080' }, /http:\/\/ proxy/],
    [{ ca: 'missing.pem' }, /Cannot read --ca missing.pem \(ENOENT\)/],
    [{ cert: 'c.pem' }, /--cert and --key go together/],
    [{ 'key-passphrase-env': 'UNSET' }, /UNSET, which is not set/],
  ])('refuses %o with a reason', (flags, reason) => {
    const got = networkOptionsFrom(flags, {}, read({ 'c.pem': '-----BEGIN CERTIFICATE-----' }))
    expect('problem' in got && got.problem).toMatch(reason)
  })
})
