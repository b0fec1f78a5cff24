/** The scenario JSON Schema, generated from the zod schema, for editors' autocompletion. */
import { z } from 'zod';
import { scenarioSchema } from './scenario-schema.js';

export function scenarioJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(scenarioSchema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return { ...schema, $id: 'https://agora.local/schemas/scenario.schema.json', title: 'Agora scenario' };
}

export function scenarioJsonSchemaText(): string {
  return `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`;
}
