/**
 * Runs a command-line entry point: prints `help` for --help or bad usage (exit 2), shows any failure as
 * one readable line (exit 1), and for long-running commands stops cleanly on SIGINT/SIGTERM.
 * `main` returns 'help', nothing (done), or a stop function for a server it started.
 */
export async function runCommand(
  help: string,
  main: (argv: string[]) => Promise<'help' | undefined | (() => Promise<void>)>,
): Promise<void> {
  let result: Awaited<ReturnType<typeof main>>
  try {
    result = await main(process.argv.slice(2))
  } catch (error) {
    const usage = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    console.error(`${usage ? 'Usage error' : 'Error'}: ${(error as Error).message}`)
    if (usage) console.error(`\n${help}`)
    process.exit(usage ? 2 : 1)
  }
  if (result === 'help') {
    console.log(help)
    return
  }
  if (typeof result === 'function') {
    const stop = result
    let stopping = false
    const shutdown = (signal: string) => {
      if (stopping) return
      stopping = true
      console.error(`\n${signal}: stopping...`)
      stop().then(
        () => process.exit(0),
        () => process.exit(1),
      )
    }
    process.once('SIGINT', () => shutdown('SIGINT'))
    process.once('SIGTERM', () => shutdown('SIGTERM'))
  }
}
