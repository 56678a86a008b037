// Its own file because both the option parser and the config-file reader throw it.
/** A usage mistake: `runCommand` prints it with the help and exits 2. */
export class UsageError extends Error {
  readonly code = 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE'
}
