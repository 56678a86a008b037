/**
 * The JSON value of a text, or `undefined` when it is not JSON: servers send whatever they send.
 * @example parseJson('{"id":1}') // { id: 1 }; parseJson('<html>') // undefined
 */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
