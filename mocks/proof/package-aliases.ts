// The package's entry names mapped to their sources, so the example app and recipes import as users do.
import { fileURLToPath } from 'node:url'

/**
 * The package's entry points mapped to their sources, so code in this repository (the example app, the
 * README's snippets) imports them by the names a frontend team uses. tsconfig.json `paths` says the same
 * to the type-checker; the built package's `exports` say it to everyone else.
 */
export const packageAliases: Record<string, string> = Object.fromEntries(
  Object.entries({
    'animal-store-contract-kit/contract': '../../contract/index.ts',
    'animal-store-contract-kit/mocks/browser': '../../mocks/browser.ts',
    'animal-store-contract-kit/mocks/node': '../../mocks/node.ts',
    'animal-store-contract-kit/mocks/vite': '../../mocks/vite-plugin.ts',
    'animal-store-contract-kit/playwright': '../../mocks/playwright.ts',
    'animal-store-contract-kit/mocks': '../../mocks/index.ts',
    'animal-store-contract-kit/conformance': '../../suites/index.ts',
  }).map(([name, path]) => [name, fileURLToPath(new URL(path, import.meta.url))]),
)
