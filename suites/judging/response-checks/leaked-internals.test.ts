import { describe, expect, it } from 'vitest'
import { internalsIn } from './leaked-internals.ts'

const error = (message: string) => JSON.stringify({ code: 'internal', message, status: 500 })

describe('an error answer that shows the server’s internals', () => {
  it.each([
    [
      'a Node.js stack trace inside a JSON Error',
      error('Cannot read properties of undefined\n    at getPet (/srv/app/routes/pets.js:41:17)'),
      'a Node.js stack trace',
    ],
    [
      "Express' development error page",
      '<!DOCTYPE html><html><body><pre>TypeError: boom<br> &nbsp; &nbsp;at /srv/app.js:10:11<br> &nbsp; &nbsp;at Layer.handle [as handle_request] (/srv/node_modules/express/lib/router/layer.js:95:5)</pre></body></html>',
      'a Node.js stack trace',
    ],
    [
      "Spring Boot's error body with its trace",
      JSON.stringify({
        status: 500,
        error: 'Internal Server Error',
        trace:
          'java.lang.NullPointerException\n\tat com.example.pets.PetController.get(PetController.java:42)\n\tat java.base/java.lang.Thread.run(Thread.java:833)',
      }),
      'a JVM stack trace',
    ],
    [
      'a Python traceback',
      'Traceback (most recent call last):\n  File "/app/main.py", line 12, in get_pet\nKeyError: 7',
      'a Python traceback',
    ],
    [
      'a Go panic',
      'panic: runtime error: index out of range\n\ngoroutine 1 [running]:\nmain.main()',
      'a Go panic trace',
    ],
    [
      'a .NET stack trace',
      '   at Pets.Api.PetsController.Get(Int64 id) in C:\\src\\Pets.Api\\PetsController.cs:line 27',
      'a .NET stack trace',
    ],
    [
      'a PHP fatal error',
      'PHP Fatal error:  Uncaught Error in /var/www/html/pets.php:14',
      'a PHP error with its file and line',
    ],
    ['a Ruby backtrace', "/app/app/controllers/pets_controller.rb:9:in `show'", 'a Ruby backtrace'],
    [
      "Django's technical 404",
      '<p>You&#x27;re seeing this error because you have <code>DEBUG = True</code> in your Django settings file.</p>',
      "Django's debug page",
    ],
    [
      "Werkzeug's debugger",
      '<title>ZeroDivisionError: division by zero // Werkzeug Debugger</title>',
      "Werkzeug's debugger",
    ],
    [
      'a source path with its line in an Error message',
      error('failed at /home/deploy/pets-api/src/store.ts:88'),
      'a source file path with a line number',
    ],
  ])('finds %s', (_, body, shows) => {
    expect(internalsIn(body)?.shows).toBe(shows)
  })

  it.each([
    ['an Error naming the pet', error('No pet has id 9223372036854775807.')],
    ['an Error naming the path asked for', error('No such path: /v1/pets.json. The API has /v1/pets.')],
    [
      "Jackson's parse message",
      error(
        "JSON parse error: Unexpected character ('}' (code 125)) at [Source: REDACTED; line: 1, column: 12]",
      ),
    ],
    ["JSON.parse's message", error('Unexpected token } in JSON at position 12')],
    ["Go's decoder message", error("invalid character 'x' looking for beginning of value")],
    ["Python's decoder message", error('Expecting value: line 1 column 1 (char 0)')],
    ['a 405 naming the methods', error('Use GET, POST.')],
    ['a file named without its line', error("ENOENT: no such file or directory, open '/srv/data/pets.db'")],
    ['an HTML gateway page', '<html><body><h1>502 Bad Gateway</h1><hr><center>nginx</center></body></html>'],
  ])('leaves alone %s', (_, body) => {
    expect(internalsIn(body)).toBeUndefined()
  })
})
