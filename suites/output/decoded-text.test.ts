import { describe, expect, it } from 'vitest'
import { decodeText, originalRange, unescapedText } from './decoded-text.ts'

describe('decodeText', () => {
  it.each([
    ['percent-encoding, also twice, and several bytes of UTF-8', 'a%2Fb%252F%C3%A9', 'a/b/é'],
    ['backslash escapes, any run of backslashes before them', 'a\\/b\\u002Fc\\x2fd\\\\\\/e', 'a/b/c/d/e'],
    ['HTML references, numeric, named, escaped again', 'a&#47;b&#x2F;c&sol;d&amp;#47;e&AMP;', 'a/b/c/d/e&'],
    ['letters in lower case', 'AbC%4A', 'abcj'],
    ['a letter after a backslash left as it is (another character)', 'a\\nb', 'a\\nb'],
    ['what only looks like an escape left as it is', '100% & 5%z &nope', '100% & 5%z &nope'],
  ])('undoes %s', (_, text, decoded) => {
    expect(decodeText(text).text).toBe(decoded)
  })

  it('maps a range of the decoded text back to the escapes it came from', () => {
    const text = 'x=s%6B_&#72;ost y'
    const decoded = decodeText(text)
    const at = decoded.text.indexOf('sk_host')
    const [from, to] = originalRange(decoded, at, at + 'sk_host'.length)
    expect(text.slice(from, to)).toBe('s%6B_&#72;ost')
  })

  it('undoes the same escapes with letters in their own case, index for index', () => {
    const text = 'Zm9v&#43;YQ%2FxX\\u002BÄİ'
    const unescaped = unescapedText(text)
    expect(unescaped).toBe('Zm9v+YQ/xX+Äİ')
    expect(unescaped.length).toBe(decodeText(text).text.length)
    const decoded = decodeText(text)
    const at = unescaped.indexOf('+YQ/')
    const [from, to] = originalRange(decoded, at, at + 4)
    expect(text.slice(from, to)).toBe('&#43;YQ%2F')
  })
})
