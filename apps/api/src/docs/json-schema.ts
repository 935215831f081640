import type { TSchema } from '@sinclair/typebox';

/** A JSON value as the documents hold it. */
export type JsonObject = { [key: string]: unknown };

/**
 * Named schemas as plain JSON (TypeBox's symbol keys dropped), each nested named schema replaced
 * by a reference to it under `prefix` (e.g. '#/components/schemas/'), so a document lists every
 * schema once and refers to it elsewhere.
 */
export function componentSchemas(schemas: readonly TSchema[], prefix: string): Record<string, JsonObject> {
  const names = new Set(schemas.map((s) => idOf(s)));
  const out: Record<string, JsonObject> = {};
  for (const schema of schemas) {
    const plain = JSON.parse(JSON.stringify(schema)) as JsonObject;
    const name = idOf(schema);
    delete plain.$id;
    out[name] = withRefs(plain, names, prefix) as JsonObject;
  }
  return out;
}

/** A reference to the named schema under `prefix`. */
export function ref(schema: TSchema | string, prefix = '#/components/schemas/'): JsonObject {
  return { $ref: prefix + (typeof schema === 'string' ? schema : idOf(schema)) };
}

function idOf(schema: TSchema): string {
  if (typeof schema.$id !== 'string') throw new Error('a document schema needs an $id');
  return schema.$id;
}

function withRefs(value: unknown, names: ReadonlySet<string>, prefix: string): unknown {
  if (Array.isArray(value)) return value.map((v) => withRefs(v, names, prefix));
  if (typeof value !== 'object' || value === null) return value;
  const obj = value as JsonObject;
  if (typeof obj.$id === 'string' && names.has(obj.$id)) return { $ref: prefix + obj.$id };
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(obj)) out[k] = withRefs(v, names, prefix);
  return out;
}
