// Reads the violations Prism's proxy reports in its sl-violations header, for the suite's --via-prism run.
/** One violation Prism's proxy lists in its `sl-violations` response header. */
export interface PrismViolation {
  location: string[]
  severity: string
  code: string | number
  message: string
}

/** Reads Prism's `sl-violations` header (a JSON array); a header that is not JSON becomes one violation. */
export function parseViolations(header: string | null | undefined): PrismViolation[] {
  if (!header) return []
  try {
    const parsed: unknown = JSON.parse(header)
    return Array.isArray(parsed) ? (parsed as PrismViolation[]) : []
  } catch {
    return [
      { location: ['header'], severity: 'Error', code: 'unparsable', message: `sl-violations: ${header}` },
    ]
  }
}
