import { describe, expect, it } from 'vitest'
import { keepDeclaredMembers } from './declared-members.ts'
import { contract } from './index.ts'
import type { OpenApiDocument } from './openapi-document.ts'

const document = contract.document

describe('keepDeclaredMembers', () => {
  it('keeps a Pet’s declared members, from both parts of its allOf, and drops the rest', () => {
    const pet = {
      id: 7,
      name: 'Rex',
      categoryId: 2,
      status: 'sold',
      padding: 'x'.repeat(100),
      extra: { a: 1 },
    }
    keepDeclaredMembers(document, '#/components/schemas/Pet', pet)
    expect(pet).toEqual({ id: 7, name: 'Rex', categoryId: 2, status: 'sold' })
  })

  it('walks a list response’s items, through the operation’s own schema pointer', () => {
    const list = contract.operations.find((operation) => operation.id === 'listPets')
    const pointer = list?.responses.find((response) => response.status === '200')?.schemaPointer
    if (pointer === undefined) throw new Error('listPets declares no 200 body')
    const pets = [
      { padding: 'x', id: 1, name: 'a', categoryId: 1 },
      { id: 2, name: 'b', categoryId: 1, more: [1, 2] },
    ]
    keepDeclaredMembers(document, pointer, pets)
    expect(pets).toEqual([
      { id: 1, name: 'a', categoryId: 1 },
      { id: 2, name: 'b', categoryId: 1 },
    ])
  })

  it('keeps the Error shape’s members and what a value of another type holds', () => {
    const error = { code: 'not_found', message: 'No pet 5.', status: 404, trace: 'abc' }
    keepDeclaredMembers(document, '#/components/schemas/Error', error)
    expect(error).toEqual({ code: 'not_found', message: 'No pet 5.', status: 404 })
    // Not an object where the schema says object: nothing to drop, nothing thrown.
    for (const other of ['text', 5, null, [1, 2]])
      expect(() => keepDeclaredMembers(document, '#/components/schemas/Error', other)).not.toThrow()
  })

  it('leaves whole what the schema leaves open: maps, choices, and members only required', () => {
    const planted = {
      openapi: '3.1.0',
      components: {
        schemas: {
          Map: { type: 'object', additionalProperties: { type: 'integer' } },
          Choice: { oneOf: [{ type: 'object', properties: { a: {} } }, { type: 'string' }] },
          Required: { allOf: [{ type: 'object', properties: { a: {} } }, { required: ['b'] }] },
          Nested: { type: 'object', properties: { inner: { $ref: '#/components/schemas/Map' }, kept: {} } },
        },
      },
    } as unknown as OpenApiDocument
    const map = { x: 1, y: 2 }
    keepDeclaredMembers(planted, '#/components/schemas/Map', map)
    expect(map).toEqual({ x: 1, y: 2 })
    const choice = { a: 1, b: 2 }
    keepDeclaredMembers(planted, '#/components/schemas/Choice', choice)
    expect(choice).toEqual({ a: 1, b: 2 })
    const required = { a: 1, b: 2, c: 3 }
    keepDeclaredMembers(planted, '#/components/schemas/Required', required)
    expect(required).toEqual({ a: 1, b: 2 })
    const nested = { inner: { x: 1 }, kept: { deep: true }, dropped: 1 }
    keepDeclaredMembers(planted, '#/components/schemas/Nested', nested)
    expect(nested).toEqual({ inner: { x: 1 }, kept: { deep: true } })
  })
})
