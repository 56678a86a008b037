// Prints the heap bytes one stored pet costs, as JSON, for `npm run bench`. Run with --expose-gc.
import { PetStore } from '../../mocks/core/pet-store.ts'
import { seedPets } from '../../mocks/core/seed-pets.ts'

const gc = (globalThis as { gc?: () => void }).gc
if (!gc)
  throw new Error('Run with node --expose-gc: the measurement needs a full collection before and after.')
const seeded = Number(process.argv[2] ?? 1_000_000)
const created = Number(process.argv[3] ?? 100_000)

gc()
const before = process.memoryUsage().heapUsed
const store = new PetStore()
for (const pet of seedPets(1, seeded)) store.add(pet)
// Pets added through the API carry names of their own, not faker's shared strings.
for (let index = 0; index < created; index++)
  store.add({ name: `Created pet number ${index}`, categoryId: 3, status: 'pending' })
gc()
const after = process.memoryUsage().heapUsed
console.log(JSON.stringify({ pets: store.size, bytesPerPet: (after - before) / store.size }))
