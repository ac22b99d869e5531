// Builders for the TypeBox schemas the domain and the API share. A schema may carry `rule`: the
// sentence of the 400 when a value breaks it (src/http/validation.ts reads it, the studio shows
// it). `named` marks a schema as a component of the OpenAPI document. Browser-safe: TypeBox only.
import { type TSchema, Type } from 'typebox';

/** The annotation carrying a schema's component name; it never appears in the document. */
export const SCHEMA_NAME = 'x-schema-name';
const COMPONENT_NAME = /^[A-Za-z][A-Za-z0-9]*$/;

/** Marks a freshly built schema as the component `name` (PascalCase, as in the spec). */
export function named<T extends TSchema>(name: string, schema: T): T {
  if (!COMPONENT_NAME.test(name)) throw new Error(`schema name "${name}" must be alphanumeric`);
  (schema as Record<string, unknown>)[SCHEMA_NAME] = name;
  return schema;
}

/** One of `values`; its static type is their union. */
export const Enum = <const Values extends string[]>(values: readonly [...Values], description?: string) =>
  Type.Enum([...values] as [...Values], { rule: `must be one of ${values.join(', ')}`, description });

export const Between = (min: number, max: number, integer = false, description?: string) =>
  (integer ? Type.Integer : Type.Number)({
    minimum: min,
    maximum: max,
    rule: `must be ${integer ? 'an integer' : 'a number'} between ${min} and ${max}`,
    description,
  });

export const Text = (maxLength: number, description?: string) =>
  Type.String({ maxLength, rule: `must be a string of at most ${maxLength} characters`, description });

/** Every property of `props` made optional, keeping each one's type. */
export const optionalAll = <P extends Record<string, TSchema>>(props: P) =>
  Object.fromEntries(Object.entries(props).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof P]: ReturnType<typeof Type.Optional<P[K]>>;
  };
