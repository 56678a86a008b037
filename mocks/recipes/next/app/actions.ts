// The recipe's Server Action: adds a pet through the server-side helper, in the session of the request that invoked it.
'use server'
import { revalidatePath } from 'next/cache.js'
import { createPet } from '../lib/api.ts'

export async function addPet(form: FormData): Promise<void> {
  await createPet({ name: String(form.get('name') ?? ''), categoryId: 1 })
  // The page re-renders on the server after the write, reading the same session.
  revalidatePath('/')
}
