// The recipe's route handler: GET /api/pets answers the pets of the caller's session, read on the server.
import { listPets } from '../../../lib/api.ts'

// Rendered per request: a build-time answer would be one session's pets served to every worker.
export const dynamic = 'force-dynamic'

export async function GET(): Promise<Response> {
  return Response.json(await listPets())
}
