// Serialized list pages kept until the store's next write: serializing is most of a list request's cost.
/**
 * Serialized list pages, kept until the store's next write and within a byte budget. Serializing a page
 * is most of a list request's cost, and frontends ask for the same page again and again. A page larger
 * than `maxPageBytes` is not worth its memory and is never kept; when the budget is full, the oldest
 * pages go first (a Map iterates in insertion order).
 */
export class PageCache {
  private version = -1
  private pages = new Map<string, string>()
  private bytes = 0
  private readonly maxBytes: number
  private readonly maxPageBytes: number

  constructor(maxBytes: number, maxPageBytes: number) {
    this.maxBytes = maxBytes
    this.maxPageBytes = maxPageBytes
  }

  /** The page cached under `key` for this store version, or undefined. */
  get(version: number, key: string): string | undefined {
    if (version !== this.version) {
      this.forgetAll(version)
      return undefined
    }
    return this.pages.get(key)
  }

  /** Keeps `page` for this version when it is small enough, evicting the oldest pages to make room. */
  set(version: number, key: string, page: string): void {
    if (version !== this.version) this.forgetAll(version)
    const size = page.length * 2
    if (size > this.maxPageBytes || size > this.maxBytes) return
    for (const [oldKey, oldPage] of this.pages) {
      if (this.bytes + size <= this.maxBytes) break
      this.pages.delete(oldKey)
      this.bytes -= oldPage.length * 2
    }
    this.pages.set(key, page)
    this.bytes += size
  }

  private forgetAll(version: number): void {
    this.version = version
    this.pages.clear()
    this.bytes = 0
  }

  /** Bytes held now (an estimate: 2 per UTF-16 unit). */
  get heldBytes(): number {
    return this.bytes
  }
}
