// Stands in for the Animal Store mock's modules in a production build (withMockGuard): none of it ships.
export {}
