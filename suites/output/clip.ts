// Cuts text a report shows to a length, saying how long it was, so no huge body buries the report.
/**
 * Text cut to `max` characters for a report, saying how long it was, so a reader knows it was cut and a
 * huge body or message cannot bury the rest of the report. `length` is the whole text's, when `text` is
 * only its start (a judged body keeps no more).
 * @example clip('x'.repeat(500), 160) // 'xxx…x… (500 chars)'
 */
export function clip(text: string, max: number, length = text.length): string {
  return length > max ? `${text.slice(0, max)}… (${length} chars)` : text
}
