#!/usr/bin/env node
// The conformance command. The run is a child process this one watches, so that --timeout holds from
// outside whatever the run is doing (docs/decisions/outside-deadline.md).
import { isWatchedRun, watchConformanceRun } from './conformance-watch.ts'

if (isWatchedRun()) await import('./conformance-run.ts')
else await watchConformanceRun(process.argv.slice(2))
