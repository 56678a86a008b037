import { describe, expect, it } from 'vitest'
import { stageGate } from './stage-gate.ts'

/** Which of the promises have settled by now, after every pending callback has run. */
async function settled(promises: Record<string, Promise<void>>): Promise<string[]> {
  const seen: string[] = []
  for (const [name, promise] of Object.entries(promises)) void promise.then(() => seen.push(name))
  await new Promise((resolve) => setTimeout(resolve, 0))
  return seen.sort()
}

describe('a stage gate', () => {
  it('lets the look back begin once every check has ended or said it writes no more, and ends once all ended', async () => {
    const checks = stageGate(2, Promise.resolve())
    const [model, other] = [checks.writer(), checks.writer()]
    const gates = { writesDone: checks.writesDone, done: checks.done }
    model() // the model's sequences are over; its sweep still reads
    expect(await settled(gates)).toEqual([])
    other() // the other check ends: its end counts as its last write too
    checks.checkDone()
    expect(await settled(gates)).toEqual(['writesDone'])
    checks.checkDone() // the sweep ends
    expect(await settled(gates)).toEqual(['done', 'writesDone'])
  })

  it('counts a check that says so twice, and then ends, once', async () => {
    const checks = stageGate(2, Promise.resolve())
    const one = checks.writer()
    one()
    one()
    expect(await settled({ writesDone: checks.writesDone })).toEqual([])
  })

  it('settles nothing before the stage before it has finished, even with no checks', async () => {
    let begin: () => void = () => {}
    const after = new Promise<void>((resolve) => {
      begin = resolve
    })
    const empty = stageGate(0, after)
    const one = stageGate(1, after)
    one.writer()()
    one.checkDone()
    const gates = {
      empty: empty.done,
      emptyWrites: empty.writesDone,
      one: one.done,
      oneWrites: one.writesDone,
    }
    expect(await settled(gates)).toEqual([])
    begin()
    expect(await settled(gates)).toEqual(['empty', 'emptyWrites', 'one', 'oneWrites'])
  })
})
