// The progress line: its text, whether a run shows it (a terminal outside CI), and its throttled writer.
/** What a progress line shows: checks done of all, requests the finished checks sent, time since the start. */
export interface Progress {
  done: number
  total: number
  requests: number
  /** Answers seen throttled so far (shown once there are some). */
  throttled?: number
  elapsedMs: number
}

/**
 * The progress line's text.
 * @example formatProgress({ done: 12, total: 80, requests: 140, elapsedMs: 3400 }) // 'checks 12/80 · 140 requests · 3.4 s'
 */
export function formatProgress({ done, total, requests, throttled = 0, elapsedMs }: Progress): string {
  return `checks ${done}/${total} · ${requests} ${requests === 1 ? 'request' : 'requests'}${throttled > 0 ? ` · ${throttled} throttled` : ''} · ${(elapsedMs / 1000).toFixed(1)} s`
}

/**
 * Whether a run shows its progress line: `--progress`/`--quiet` decide when given; otherwise only on a
 * terminal outside CI (a CI log or a pipe would keep every carriage-return rewrite).
 */
export function showsProgress(
  asked: boolean | undefined,
  stream: { isTTY?: boolean },
  env: Record<string, string | undefined>,
): boolean {
  if (asked !== undefined) return asked
  return stream.isTTY === true && (env.CI === undefined || env.CI === '' || env.CI === 'false')
}

/** A line rewritten in place on stderr (through the output boundary's status line), at most every 100 ms (a run finishes dozens of checks a second). */
export interface ProgressWriter {
  update(progress: Progress): void
  /** Clears the line, so the summary that follows starts on a clean one. */
  end(): void
}

/** The progress writer for this process, or undefined when the run shows none. */
export function progressLine(
  asked: boolean | undefined,
  status: (text: string) => void,
): ProgressWriter | undefined {
  if (!showsProgress(asked, process.stderr, process.env)) return undefined
  let last = 0
  let shown = false
  return {
    update(progress) {
      const now = Date.now()
      if (now - last < 100 && progress.done < progress.total) return
      last = now
      shown = true
      status(formatProgress(progress))
    },
    end() {
      if (shown) status('')
    },
  }
}
