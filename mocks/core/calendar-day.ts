// A calendar day written YYYY-MM-DD: the mock's `date` and the commands' `--date` read days by this one rule.

/** Whether a value is a calendar day written `YYYY-MM-DD` (2030-02-30 is not one). */
export function isDay(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false
  const parsed = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value)
}
