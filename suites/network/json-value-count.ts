// Counts the JSON values a body would parse to as its bytes arrive, so a body of a million `{}` is refused.
/**
 * The JSON values a body would parse to, counted as its bytes come in: one, and one more for each comma
 * outside strings, once the body starts as an array or an object does (a scalar is one value, and any other
 * text is not JSON). Containers without commas between them can only nest, which the parser refuses past
 * 256 levels (contract/exact-json.ts), so the commas bound what parsing builds. JSON.parse turns each `{}`
 * of a body into an object of some fifty bytes: a body of a million of them, under the byte cap, took the
 * run past 1.8 GB, where the bytes alone are 4 MB.
 * @example const count = new JsonValueCount(); count.add(Buffer.from('[{},{"a":"x,y"}]')); count.values // 2
 */
export class JsonValueCount {
  values = 0
  #started = false
  #json = false
  #inString = false
  #escaped = false

  add(chunk: Uint8Array): void {
    for (let at = 0; at < chunk.length; at++) {
      const byte = chunk[at] as number
      if (!this.#started) {
        if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) continue
        this.#started = true
        this.#json = byte === 0x7b || byte === 0x5b
        if (this.#json) this.values = 1
      }
      if (!this.#json) return
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false
        else if (byte === 0x5c) this.#escaped = true
        else if (byte === 0x22) this.#inString = false
      } else if (byte === 0x22) this.#inString = true
      else if (byte === 0x2c) this.values++
    }
  }
}
