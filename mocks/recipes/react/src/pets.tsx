// The React recipe's page: the pets list and an add form, on TanStack Query over the typed client.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import type { ApiClient } from './api-client.ts'

/** The pets list and an add form on TanStack Query: the list refetches after each pet added. */
export function Pets({ client }: { client: ApiClient }) {
  const queryClient = useQueryClient()
  const pets = useQuery({
    queryKey: ['pets'],
    queryFn: async () => {
      const { data, error } = await client.GET('/pets', { params: { query: { limit: 100 } } })
      if (error) throw new Error(`${error.status} ${error.code}: ${error.message}`)
      return data
    },
  })
  const addPet = useMutation({
    mutationFn: async (name: string) => {
      const { data, error } = await client.POST('/pets', { body: { name, categoryId: 1 } })
      if (error) throw new Error(`${error.status} ${error.code}: ${error.message}`)
      return data
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['pets'] }),
  })
  const [name, setName] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    addPet.mutate(name)
  }

  if (pets.isPending) return <p>Loading pets…</p>
  if (pets.isError) return <p role="alert">{pets.error.message}</p>
  return (
    <main>
      <ul aria-label="pets">
        {pets.data.map((pet) => (
          <li key={pet.id}>{pet.name}</li>
        ))}
      </ul>
      <form onSubmit={submit}>
        <label>
          Name <input value={name} onChange={(event) => setName(event.target.value)} />
        </label>
        <button type="submit">Add</button>
      </form>
      {addPet.isError && <p role="alert">{addPet.error.message}</p>}
    </main>
  )
}
