// The recipe's one page: the pets of the request's session, read on the server per request, and a form whose Server Action adds one.
import { listPets } from '../lib/api.ts'
import { addPet } from './actions.ts'

// next build would otherwise prerender the page, calling the API once at build time for every visitor.
export const dynamic = 'force-dynamic'

export default async function PetsPage() {
  const pets = await listPets()
  return (
    <main>
      <h1>Pets</h1>
      <ul aria-label="pets">
        {pets.map((pet) => (
          <li key={pet.id} data-testid="pet-row">
            {pet.name}
          </li>
        ))}
      </ul>
      <form action={addPet} data-testid="add-form">
        <label>
          Name <input name="name" required />
        </label>
        <button type="submit">Add</button>
      </form>
    </main>
  )
}
