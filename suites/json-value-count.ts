/**
 * The JSON values a body would parse to, counted as its bytes come in: the commas and opening brackets
 * outside strings, once the body starts as an array or an object does (a scalar is one value, and any
 * other text is not JSON). JSON.parse turns each `{}` of a body into an object of some fifty bytes: a body
 * of a million of them, under the byte cap, took the run past 1.8 GB, where the bytes alone are 4 MB.
 * @example const count = new JsonValueCount(); count.add(Buffer.from('[{},{"a":"x,y"}]')); count.values // 3
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
      }
      if (!this.#json) return
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false
        else if (byte === 0x5c) this.#escaped = true
        else if (byte === 0x22) this.#inString = false
      } else if (byte === 0x22) this.#inString = true
      else if (byte === 0x2c || byte === 0x7b || byte === 0x5b) this.values++
    }
  }
}
