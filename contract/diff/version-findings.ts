// The version check: a breaking change needs a new major info.version, and the changelog naming it.
import type { DiffFinding, DiffSide } from './contract-change.ts'

function majorOf(version: string): number | undefined {
  const match = /^v?(\d+)\.\d+\.\d+(?:[-+].*)?$/.exec(version.trim())
  return match ? Number(match[1]) : undefined
}

/** The changelog a breaking change must be written in: its path and its text. */
export interface Changelog {
  path: string
  text: string
}

/**
 * When the diff counts breaking changes, HEAD's `info.version` must have a higher major than BASE's
 * (Semantic Versioning 2.0.0 §8), and the changelog, when one is given, must name that version.
 */
export function versionFindings(
  base: DiffSide,
  head: DiffSide,
  breaking: number,
  changelog?: Changelog,
): DiffFinding[] {
  if (breaking === 0) return []
  const [from, to] = [majorOf(base.version), majorOf(head.version)]
  const findings: DiffFinding[] = []
  if (from === undefined || to === undefined)
    findings.push({
      kind: 'version-not-semver',
      message: `info.version must be MAJOR.MINOR.PATCH to tell a breaking change (BASE ${base.version}, HEAD ${head.version}): write it so.`,
    })
  else if (to <= from)
    findings.push({
      kind: 'version-not-bumped',
      message: `${breaking === 1 ? 'A breaking change needs' : `${breaking} breaking changes need`} a new major version, but info.version goes from ${base.version} to ${head.version}: set it to ${from + 1}.0.0, or make the change compatible.`,
    })
  const escaped = head.version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  if (changelog && !new RegExp(`(^|[^\\w.])v?${escaped}(?!\\w|\\.\\d)`, 'm').test(changelog.text))
    findings.push({
      kind: 'changelog-without-version',
      message: `${changelog.path} does not name the contract's version ${head.version}: add an entry for it that says what breaks.`,
    })
  return findings
}
