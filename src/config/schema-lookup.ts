/** Walks a zod schema along a data path, to list the fields allowed where an unknown key was found. */
import type { z } from 'zod';

type AnySchema = z.core.$ZodType;

function unwrap(schema: AnySchema): AnySchema {
  let current = schema;
  for (let depth = 0; depth < 20; depth += 1) {
    const def = current._zod.def as { type: string; innerType?: AnySchema; in?: AnySchema };
    if ((def.type === 'default' || def.type === 'optional' || def.type === 'prefault') && def.innerType) {
      current = def.innerType;
    } else if (def.type === 'pipe' && def.in) {
      current = def.in;
    } else {
      return current;
    }
  }
  return current;
}

/** The schema found at `path` inside `root`, or undefined when the path leaves the schema. */
export function schemaAt(root: AnySchema, path: ReadonlyArray<PropertyKey>): AnySchema | undefined {
  let current: AnySchema | undefined = unwrap(root);
  for (const key of path) {
    if (current === undefined) return undefined;
    const def = current._zod.def as {
      type: string;
      shape?: Record<string, AnySchema>;
      element?: AnySchema;
      valueType?: AnySchema;
    };
    if (def.type === 'object' && def.shape) current = def.shape[String(key)];
    else if (def.type === 'array' && def.element) current = def.element;
    else if (def.type === 'record' && def.valueType) current = def.valueType;
    else return undefined;
    current = current === undefined ? undefined : unwrap(current);
  }
  return current;
}

/** Field names an object schema at `path` accepts. */
export function allowedKeysAt(root: AnySchema, path: ReadonlyArray<PropertyKey>): string[] {
  const schema = schemaAt(root, path);
  const def = schema?._zod.def as { type: string; shape?: Record<string, AnySchema> } | undefined;
  return def?.type === 'object' && def.shape ? Object.keys(def.shape) : [];
}
