// What to do about a leak, worded for the framework the build belongs to: Vite's guard does not compile in Next.
import type { BundleFramework } from './bundle-targets.ts'

const docs = 'Docs: docs/mock.md, "Keeping the mock out of production".'

/** The fix text check-bundle and the build guards print after the files that ship the mock. */
export function bundleFixText(framework: BundleFramework): string {
  switch (framework) {
    case 'vite':
      return [
        'Start the mock only in development (`if (import.meta.env.DEV) await import("./browser-mock")`),',
        "keep the mock's API key out of production code, and keep mockServiceWorker.js out of the production",
        `public folder (Vite: publicDir only when mode !== 'production'). ${docs}`,
      ].join('\n')
    case 'next':
      // Next 15's types have no import.meta.env ("Property 'env' does not exist on type 'ImportMeta'"; later
      // Next declares one); every Next inlines process.env.NODE_ENV, which `next build` sets to production.
      return [
        'Next: start the browser mock only in development, from a client component ("use client"):',
        "`if (process.env.NODE_ENV === 'development') { const { startBrowserMock } = await import('animal-store-contract-kit/mocks/browser'); ... }`",
        '(next build inlines process.env.NODE_ENV as "production" and drops the branch; Next 15 has no import.meta.env).',
        "Keep the mock's API key out of code that ships (server code reads its key from the environment), and",
        'mockServiceWorker.js out of public/ when you build: Next serves public/ as it is. Write it in a "predev"',
        'script and delete it before next build; withMockGuard in next.config.ts refuses the build while it is',
        `there and leaves the mock's modules out (the kit's repository, mocks/recipes/next/). ${docs}`,
      ].join('\n')
    case 'plain':
      return [
        'Load the mock only in development builds, behind a flag your bundler replaces at build time so the',
        "production build drops the branch and the chunk behind it; keep the mock's API key out of production",
        `code, and keep mockServiceWorker.js out of the folder you deploy. ${docs}`,
      ].join('\n')
  }
}
