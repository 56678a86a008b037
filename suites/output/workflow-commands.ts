// Finds the CI workflow commands a runner would execute in some output, read as runners read it, for tests.
/**
 * The workflow commands a CI runner would execute from a process's output, read the way the runners read
 * it, for tests. Conservative: every line that parses as a command counts, whatever its name, and
 * `::stop-commands::` is not honoured (so a command hidden behind it still counts).
 *
 * - Lines end at `\n`, `\r\n` or a lone `\r` (the runner reads output with .NET's StreamReader.ReadLine).
 * - GitHub, current form (ActionCommand.TryParseV2): after trimming leading white space the line starts
 *   with `::`, and a second `::` follows: `::name props::data`.
 * - GitHub, older form (ActionCommand.TryParse): `##[` anywhere in the line, then a `]`.
 * - Azure Pipelines: `##vso[` anywhere in the line, then a `]`; TeamCity: `##teamcity[` likewise.
 * @example workflowCommands('ok\n  ::add-mask::x') // ['::add-mask::x']
 */
export function workflowCommands(output: string): string[] {
  const found: string[] = []
  for (const raw of output.split(/\r\n|\r|\n/)) {
    const line = raw.trimStart()
    if (line.startsWith('::') && line.indexOf('::', 2) > 2) found.push(line)
    else if (opensBracketCommand(raw)) found.push(raw)
  }
  return found
}

/**
 * `##[`, `##vso[` or `##teamcity[`, then a `]` anywhere after it. The first opening is the one to look
 * after: a `]` after any later one is after it too, and reading on from every opening would read a line
 * of openings again from each (quadratic).
 */
function opensBracketCommand(line: string): boolean {
  const opening = /##(?:vso|teamcity)?\[/.exec(line)
  return opening !== null && line.includes(']', opening.index + opening[0].length)
}
