// A stand-in for GitHub's CLI on PATH, for the workflows' steps: it records each call and answers from files.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { scratchDir } from '../../suites/proof/scratch-dir.ts'
import { binFolder } from './workflow-steps.ts'

// `gh run list` answers the runs given for its --branch (or for none), as `--json` prints them;
// `gh run download ID --name N --dir D` puts run ID's artefact files in D, or fails as gh does when the
// run has none (or it expired); `gh api` answers the comments' pages (as `--paginate --slurp` does: one
// array per page) and keeps the body it was sent. With "fail", every call fails as gh does when GitHub is
// down or the token may not read.
const script = `#!/bin/bash
printf '%s\\n' "$*" >> "$FAKE_GH_DIR/calls"
if [ -f "$FAKE_GH_DIR/fail" ]; then
  echo "HTTP 502: Bad Gateway (https://api.github.com/)" >&2
  exit 1
fi
option() {
  local want=$1 previous=""
  shift
  for arg in "$@"; do
    [ "$previous" = "$want" ] && printf '%s' "$arg"
    previous=$arg
  done
}
case "$1 $2" in
  "run list")
    branch=$(option --branch "$@")
    cat "$FAKE_GH_DIR/runs\${branch:+-$branch}.json" 2>/dev/null || echo '[]' ;;
  "run download")
    dir=$(option --dir "$@")
    if [ -d "$FAKE_GH_DIR/artifacts/$3" ]; then
      mkdir -p "$dir" && cp "$FAKE_GH_DIR/artifacts/$3/"* "$dir/"
    else
      echo "no valid artifacts found to download" >&2
      exit 1
    fi ;;
  *)
    for arg in "$@"; do
      case "$arg" in body=@*) cp "\${arg#body=@}" "$FAKE_GH_DIR/body" ;; esac
    done
    case " $* " in
      *" --method "*) echo '{"id": 1}' ;;
      */labels" "*) cat "$FAKE_GH_DIR/labels.txt" 2>/dev/null ;;
      *) cat "$FAKE_GH_DIR/comments.json" ;;
    esac ;;
esac
`

export interface FakeGhSetup {
  /** Runs `gh run list` prints, by the --branch asked for ('' for none). */
  runs?: Record<string, { databaseId: number; conclusion: string }[]>
  /** Each run's `conformance-exchanges` artefact: its conformance.json text. */
  artifacts?: Record<number, string>
  /** Any run's artefact as files by name (the frontend's `pacts`, say). */
  artifactFiles?: Record<number, Record<string, string>>
  /** The pull request's comments, page by page. */
  comments?: unknown[][]
  /** The pull request's labels, as `gh api …/labels --jq '.[].name'` prints them. */
  labels?: string[]
  fail?: boolean
}

export interface FakeGh {
  /** The folder to put first on PATH (it holds the command too). */
  bin: string
  /** Its environment variable: where it keeps what it was given. */
  env: { FAKE_GH_DIR: string }
  /** Each call's arguments, one line a call. */
  calls(): string[]
  /** The comment body it was sent, '' when none. */
  body(): string
}

export function fakeGh(setup: FakeGhSetup = {}): FakeGh {
  const dir = scratchDir('fake-gh-')
  writeFileSync(join(dir, 'comments.json'), JSON.stringify(setup.comments ?? [[]]))
  for (const [branch, runs] of Object.entries(setup.runs ?? {}))
    writeFileSync(join(dir, branch ? `runs-${branch}.json` : 'runs.json'), JSON.stringify(runs))
  for (const [id, text] of Object.entries(setup.artifacts ?? {})) {
    mkdirSync(join(dir, 'artifacts', id), { recursive: true })
    writeFileSync(join(dir, 'artifacts', id, 'conformance.json'), text)
  }
  for (const [id, files] of Object.entries(setup.artifactFiles ?? {})) {
    mkdirSync(join(dir, 'artifacts', id), { recursive: true })
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'artifacts', id, name), text)
  }
  if (setup.labels) writeFileSync(join(dir, 'labels.txt'), setup.labels.map((label) => `${label}\n`).join(''))
  if (setup.fail) writeFileSync(join(dir, 'fail'), '')
  const read = (name: string) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : '')
  return {
    bin: binFolder({ gh: script }),
    env: { FAKE_GH_DIR: dir },
    calls: () => read('calls').split('\n').filter(Boolean),
    body: () => read('body'),
  }
}

/**
 * An earlier run's conformance.json as the command writes it, cut to what a comparison reads: one finding
 * (the auth hole), judged against another base URL.
 */
export const previousReport = JSON.stringify({
  format: 1,
  target: { baseUrl: 'https://staging.example/v1', readOnly: false },
  verdict: 'does-not-conform',
  startedAt: '2026-11-20T10:00:00.000Z',
  totals: { checks: 217 },
  findings: [
    {
      id: 'auth-any-key-1a2b3c4d',
      rule: 'auth-any-key',
      where: 'GET /pets',
      operations: ['listPets'],
    },
  ],
})
