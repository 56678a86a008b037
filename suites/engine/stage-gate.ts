// When a stage of a run's checks begins and ends: a count of its checks, and of those that may still write.

/** One stage of a run: it begins once `after` settles; each of its checks says when it ended. */
export interface StageGate {
  /** Settles when the stage may begin. */
  after: Promise<void>
  /** Settles once every check of the stage has ended, and never before `after`. */
  done: Promise<void>
  /**
   * Settles once every check of the stage has ended or said it will write nothing more (`wroteLast`): what
   * only reads what the stage's writes may have undone can begin then, beside the stage's last reads.
   */
  writesDone: Promise<void>
  /** A check of the stage ended (once per check). */
  checkDone(): void
  /** A callback for one check, to call once it will write nothing more; its end counts too, once. */
  writer(): () => void
}

/** The gate of a stage of `checks` checks, which begins once `after` settles. */
export function stageGate(checks: number, after: Promise<void>): StageGate {
  const counter = (count: number) => {
    let left = count
    let settle: () => void = () => {}
    const settled = new Promise<void>((resolve) => {
      settle = resolve
    })
    // A stage settles nothing before it has begun, even with no checks (or all of them ending at once).
    const reached = () => void after.then(settle)
    if (left === 0) reached()
    return {
      settled,
      down() {
        if (--left === 0) reached()
      },
    }
  }
  const ended = counter(checks)
  const writing = counter(checks)
  return {
    after,
    done: ended.settled,
    writesDone: writing.settled,
    checkDone: ended.down,
    writer() {
      let counted = false
      return () => {
        if (counted) return
        counted = true
        writing.down()
      }
    },
  }
}
