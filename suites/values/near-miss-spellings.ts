// Spellings a hair from an enum value (other case, a space), shared by negative bodies and near-miss queries.
/**
 * Spellings a hair away from an enum value, labelled for a check name: another letter case, a space
 * before or after. A validator that trims or folds case takes them; the contract's enum does not.
 * @example enumNearMisses('sold').map(([, v]) => v) // ['SOLD', 'Sold', 'sold ', ' sold']
 */
export function enumNearMisses(value: string): [string, string][] {
  return [
    [`"${value.toUpperCase()}" (upper case)`, value.toUpperCase()],
    [`"${capitalise(value)}" (capitalised)`, capitalise(value)],
    [`"${value} " (trailing space)`, `${value} `],
    [`" ${value}" (leading space)`, ` ${value}`],
  ]
}

/** The text with its first letter in upper case: `pets` gives `Pets`. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
