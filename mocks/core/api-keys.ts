// The key the mock accepts when given none, which the CLI prints and the bundle check looks for in builds.
/** The API key the mock accepts when none is configured; printed by `npm start`. */
export const defaultApiKey = 'animal-store-mock-key'
