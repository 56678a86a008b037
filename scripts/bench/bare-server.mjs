// The ceiling for `npm run bench`: plain node:http answering one fixed JSON body, no auth, no routing.
// Plain JavaScript on purpose, so neither a TypeScript loader nor any of our code is in its numbers.
// Usage: node bare-server.mjs PORT [BODY_FILE]; the bench gives it the mock's own page, so both send
// the same bytes.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const statuses = ['available', 'pending', 'sold']
const body = process.argv[3]
  ? readFileSync(process.argv[3], 'utf8')
  : JSON.stringify(
      Array.from({ length: 20 }, (_, index) => ({
        id: index + 1,
        name: `Pet ${index + 1}`,
        categoryId: (index % 12) + 1,
        status: statuses[index % 3],
      })),
    )
const port = Number(process.argv[2] ?? 4013)
createServer((_, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}).listen(port, '127.0.0.1', () => console.log(`bare server on http://127.0.0.1:${port}`))
process.on('SIGTERM', () => process.exit(0))
