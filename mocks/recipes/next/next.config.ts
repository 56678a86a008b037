// The recipe's Next config: withMockGuard keeps the mock out of next build.
import { withMockGuard } from './with-mock-guard.ts'

export default withMockGuard({
  // The kit's tsc checks these files; Next's own check and lint would only add build time.
  typescript: { ignoreBuildErrors: true },
  eslint: { ignoreDuringBuilds: true },
})
