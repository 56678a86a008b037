// How every command-line entry point runs: help and usage exits, one-line failures, clean stops on signals.
/**
 * Runs a command-line entry point: prints `help` for --help or bad usage (exit 2), shows any failure as
 * one readable line (exit 1), and for long-running commands stops cleanly on SIGINT/SIGTERM, or when the
 * process that started it goes away.
 * `main` returns 'help', nothing (done), or a stop function for a server it started.
 */
export async function runCommand(
  help: string,
  main: (argv: string[]) => Promise<'help' | undefined | (() => Promise<void>)>,
): Promise<void> {
  let stop: (() => Promise<void>) | undefined
  let stopping = false
  const shutdown = (reason: string) => {
    if (stopping) return
    stopping = true
    console.error(`\n${reason}: stopping...`)
    // A signal that arrives while the command is still starting ends it at once: there is nothing to close.
    ;(stop ?? (async () => {}))().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  // Listening from the start, not once the server is up: a signal sent the moment the address is printed
  // must still stop it cleanly, never kill it half-way.
  process.once('SIGINT', () => shutdown('SIGINT'))
  process.once('SIGTERM', () => shutdown('SIGTERM'))
  // npm forwards SIGINT/SIGTERM to its script's process (`npm start` execs node, so that is the mock).
  // If npm itself is killed outright (SIGKILL), or a script runs the bin under a shell, nothing is
  // forwarded and the server would serve on, orphaned. A new parent process id means whoever started this
  // is gone: stop as for SIGTERM. The parent is read first thing, since it can die while the server
  // starts. Checking costs nothing; unref'd, it never keeps the process alive.
  const parent = process.ppid
  setInterval(() => {
    if (process.ppid !== parent) shutdown(`The process that started this one (pid ${parent}) is gone`)
  }, 200).unref()

  let result: Awaited<ReturnType<typeof main>>
  try {
    result = await main(process.argv.slice(2))
  } catch (error) {
    const usage = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    console.error(`${usage ? 'Usage error' : 'Error'}: ${(error as Error).message}`)
    if (usage) console.error(`\n${help}`)
    process.exit(usage ? 2 : 1)
  }
  if (result === 'help') console.log(help)
  if (typeof result !== 'function') return
  stop = result
}
