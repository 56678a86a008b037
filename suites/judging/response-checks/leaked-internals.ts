// The response check that no error body or page exposes a stack trace, a source path or a debug page.
import { clip } from '../../output/index.ts'
import type { ResponseCheck } from './judging.ts'

/**
 * What a server's internals look like in an error answer, each a concrete signature a framework or a
 * runtime writes (never a loose word such as "error" or "exception"): a correct server's Error never holds
 * one. Every variable part is bounded, so a long body costs time in proportion to its length.
 */
const signatures: readonly { shows: string; pattern: RegExp }[] = [
  // V8: `    at handler (/srv/app.js:12:5)`, `    at async Promise.all (index 0)` is not enough alone.
  {
    shows: 'a Node.js stack trace',
    pattern:
      /^[ \t]{1,16}at (?:async )?(?:[^\n()]{1,240} \()?(?:file:\/\/\/?|node:)?(?:\/|[A-Za-z]:\\|internal\/)[^\n()]{0,240}:\d{1,7}:\d{1,7}\)?/m,
  },
  // `\tat com.example.PetController.get(PetController.java:42)`, modules too (`java.base/java.lang.Thread`).
  {
    shows: 'a JVM stack trace',
    pattern:
      /^[ \t]{0,16}at [\w$][\w$./<>-]{0,300}\((?:[\w$-]{1,120}\.(?:java|kt|scala|groovy):\d{1,7}|Native Method|Unknown Source)\)/m,
  },
  {
    shows: 'a Python traceback',
    pattern: /Traceback \(most recent call last\):|^[ \t]{0,16}File "[^"\n]{1,400}", line \d{1,7}, in /m,
  },
  { shows: 'a Go panic trace', pattern: /goroutine \d{1,9} \[[a-z ,0-9]{1,60}\]:/ },
  {
    shows: 'a .NET stack trace',
    pattern: /^[ \t]{0,16}at [\w.`<>$|[\],]{1,300}\([^\n)]{0,300}\) in [^\n]{1,400}:line \d{1,7}/m,
  },
  {
    shows: 'a PHP error with its file and line',
    pattern:
      /\bin (?:\/|[A-Za-z]:\\)[^\n<]{1,400}\.php(?::\d{1,7}| on line \d{1,7})|^#\d{1,4} (?:\/|[A-Za-z]:\\)[^\n(]{1,400}\.php\(\d{1,7}\): /m,
  },
  { shows: 'a Ruby backtrace', pattern: /^[ \t]{0,16}(?:from )?\/[^\n:]{1,400}\.rb:\d{1,7}:in [`'‘]/m },
  {
    shows: "Django's debug page",
    pattern: /seeing this error because you have <code>DEBUG = True<\/code>|Django Version:/,
  },
  {
    shows: "Werkzeug's debugger",
    pattern: /Werkzeug Debugger|The debugger caught an exception in your WSGI application/,
  },
  { shows: "Rails' debug page", pattern: /Action Controller: Exception caught/ },
  {
    shows: "ASP.NET's error page",
    pattern:
      /Server Error in '[^'\n]{0,200}' Application\.|An unhandled exception occurred while processing the request\./,
  },
  { shows: "Whoops' debug page", pattern: /Whoops! There was an error\./ },
  // `/srv/app/pets.py:88`, `C:\app\Pets.cs:12`: a source file on the server's disk, with the line that failed.
  {
    shows: 'a source file path with a line number',
    pattern:
      /(?:^|[\s"'(=[])(?:\/[\w.@+-]{1,120}){2,40}\.(?:js|mjs|cjs|ts|jsx|tsx|py|java|kt|go|rb|php|cs|rs|scala|ex|exs|pl|pm|c|cc|cpp|swift|lua):\d{1,7}\b|[A-Za-z]:\\(?:[\w .@+-]{1,120}\\){1,40}[\w.@+-]{1,120}\.(?:js|ts|py|java|cs|go|rb|php|vb):(?:line )?\d{1,7}\b/m,
  },
]

// An error body is read as a person would see it: JSON strings unescaped, HTML line breaks and entities
// decoded (Express' development handler writes its stack as `<br> &nbsp; &nbsp;at …`).
const jsonEscape = /\\(["\\/nrt])/g
const jsonEscaped: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', n: '\n', r: '\r', t: '\t' }
const htmlBreak = /<br\s{0,4}\/?>/gi
const htmlEntity = /&(nbsp|quot|amp|lt|gt|#39|#x27);/g
const htmlEntities: Record<string, string> = {
  nbsp: ' ',
  quot: '"',
  amp: '&',
  lt: '<',
  gt: '>',
  '#39': "'",
  '#x27': "'",
}

// Debug pages put their signature near the top; a stack trace's first frame follows its message.
const scannedChars = 256 * 1024

/**
 * What the text shows of the server's internals, if anything: which kind, and the text that shows it.
 * @example internalsIn('{"message":"boom\\n    at get (/srv/app.js:3:9)"}') // { shows: 'a Node.js stack trace', … }
 */
export function internalsIn(body: string): { shows: string; excerpt: string } | undefined {
  const text = body
    .slice(0, scannedChars)
    .replace(jsonEscape, (_, char: string) => jsonEscaped[char] ?? char)
    .replace(htmlBreak, '\n')
    .replace(htmlEntity, (_, name: string) => htmlEntities[name] ?? name)
  for (const { shows, pattern } of signatures) {
    const match = pattern.exec(text)
    if (match) return { shows, excerpt: clip(match[0].trim(), 160) }
  }
  return undefined
}

/**
 * An error answer (any 4xx or 5xx, whatever its type or status) that shows a stack trace, a source path
 * with its line or a framework's debug page. Judged on every response, after the others and whatever they
 * found: a leak is a defect of its own (CWE-209), not a symptom of the status or the body's shape.
 */
export const leakedInternalsCheck: ResponseCheck = {
  name: 'leaked internals',
  rules: ['leaked-internals'],
  judge({ exchange, name, violate }) {
    const { status, body } = exchange.response
    if (status < 400 || body.length === 0) return undefined
    const leak = internalsIn(body)
    if (leak)
      violate(
        'leaked-internals',
        // One error handler writes every error answer: one finding, whichever operation showed it.
        'error answers expose internals',
        `${name} ${status} exposes ${leak.shows}: ${JSON.stringify(leak.excerpt)}. Send the Error body only; keep traces in the server's log.`,
      )
    return undefined
  },
}
