/** The API key the mock accepts when none is configured; printed by `npm start`. */
export const defaultApiKey = 'animal-store-mock-key'
