// The output boundary: what any text from a server passes before a console, a report or a CI log (redaction,
// neutralising, clipping).
// The face of suites/output/: other folders import from here, never from its files.
export { clip } from './clip.ts'
export { markdownCell, markdownCode, markdownFence, markdownInlineHtml, xmlEscape } from './neutralise.ts'
export { createOutput, type Output, redactionNote, writeReportFiles } from './output-boundary.ts'
export { redactedMarker, type SecretKind, Secrets } from './secrets.ts'
