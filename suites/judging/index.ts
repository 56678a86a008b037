// The judge: rules and findings, the judged record of an exchange, and what every response must keep.
// The face of suites/judging/: other folders import from here, never from its files.
export { describeExchange, type Exchange, jsonOf } from './exchange.ts'
export {
  type Finding,
  findingId,
  groupFindings,
  stableFindingId,
  type Violation,
} from './findings.ts'
export { expectationMismatches } from './pact-expectation.ts'
export { parseJson } from './parse-json.ts'
export { changedValue, differences } from './pet-differences.ts'
export { prismRounded } from './prism-rounded.ts'
export { type Recorder, record, recordOf } from './recorder.ts'
export { replayCommand } from './replay-command.ts'
export type { SendParams } from './request-intent.ts'
export { judgePrism, judgeResponse, standaloneRules } from './response-checks/index.ts'
export { declaredResponse } from './response-checks/judging.ts'
export { excludedRules, listChecksText } from './rule-selection.ts'
export { consumerDriftSwitch, policySwitch, type RuleId, rules, rulesMarkdown } from './rules.ts'
