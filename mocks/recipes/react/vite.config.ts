import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import { packageAliases } from '../../proof/package-aliases.ts'

// The React recipe as a Vite app. JSX needs no plugin: Vite's esbuild reads "jsx": "react-jsx" from
// tsconfig.json. Only the package aliases are ours: in your app the package resolves from node_modules.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  clearScreen: false,
  resolve: { alias: packageAliases },
  build: {
    target: 'es2022',
    rollupOptions: {
      // TanStack Query marks its modules "use client" for React Server Components; a client-only bundle
      // drops the directive, as @vitejs/plugin-react would say silently.
      onwarn: (warning, warn) => (warning.code === 'MODULE_LEVEL_DIRECTIVE' ? undefined : warn(warning)),
    },
  },
})
