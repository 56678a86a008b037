/**
 * Text cut to `max` characters for a report, saying how long it was, so a reader knows it was cut and a
 * huge body or message cannot bury the rest of the report.
 * @example clip('x'.repeat(500), 160) // 'xxx…x… (500 chars)'
 */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text
}
