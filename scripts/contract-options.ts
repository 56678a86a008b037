// The contract command's option table, apart from the script so docs and tests read it without running it.
import { defineCommand } from './cli/command-options.ts'
import { day, oneOf, text } from './cli/option-kinds.ts'

export const failOnSides = ['any', 'consumers', 'providers'] as const

/** `animal-store-contract` (`npm run contract`), declared once: parser, `--help` and the docs' table read it. */
export const contractCommand = defineCommand({
  name: 'animal-store-contract',
  usage: [
    'animal-store-contract diff BASE [HEAD] [options]',
    'animal-store-contract diff --base-ref REV [HEAD] [options]',
    '(in this repository: npm run contract -- diff BASE [HEAD] [options])',
  ],
  summary: `Compares two OpenAPI 3.1 documents (YAML or JSON) and classifies every change: breaking for
consumers (clients), breaking for providers (servers), or not breaking, each with its reason. HEAD is the
kit's own contract unless given. It also checks HEAD's deprecation marks (deprecated with an x-sunset, an
x-sunset only when deprecated), that a breaking change comes with a new major info.version, and with
--changelog that the changelog names it.`,
  positionals: true,
  options: {
    'base-ref': {
      kind: text('REV', 'a git revision such as origin/main'),
      help: 'take BASE from git: contract/openapi.yaml at this revision, read with\ngit show REV:contract/openapi.yaml in the current folder; REV:PATH names\nanother file',
    },
    'fail-on': {
      kind: oneOf(failOnSides, 'SIDE'),
      help: 'which breaking changes fail the diff (exit 1): any, consumers (clients)\nor providers (servers)',
      default: 'any',
    },
    format: {
      kind: oneOf(['markdown', 'json'], 'FORMAT'),
      help: 'what to print: markdown or json',
      default: 'markdown',
    },
    markdown: {
      kind: text('FILE', 'a file path'),
      help: 'also write the Markdown report to FILE, such as "$GITHUB_STEP_SUMMARY"',
    },
    json: { kind: text('FILE', 'a file path'), help: 'also write the JSON report to FILE' },
    date: {
      kind: day,
      help: 'the day sunsets are judged against',
      defaultText: 'today, UTC',
    },
    pact: {
      kind: text('FILE', 'a file path'),
      multiple: true,
      help: "a consumer's Pact file recorded on the mock (docs/pact.md), repeatable: each\nbreaking change names the recorded interactions it breaks",
    },
    changelog: {
      kind: text('FILE', 'a file path'),
      help: "a changelog that must name HEAD's info.version when a change breaks",
    },
  },
  footer: `Exit codes: 0 nothing breaks the side --fail-on counts and the diff has no finding; 1 something
breaks it, or a finding (deprecation marks, version, changelog); 2 usage error (an unreadable file, an
unknown revision, a document that is not OpenAPI 3.1).

Examples:
  animal-store-contract diff old.yaml
  animal-store-contract diff --base-ref origin/main --markdown "$GITHUB_STEP_SUMMARY" --json diff.json`,
})
