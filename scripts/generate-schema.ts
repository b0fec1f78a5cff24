/** Writes schemas/scenario.schema.json from the zod schema (`npm run schema`). */
import { writeFileSync } from 'node:fs';
import { scenarioJsonSchemaText } from '../src/config/json-schema.js';

writeFileSync(new URL('../schemas/scenario.schema.json', import.meta.url), scenarioJsonSchemaText());
console.log('wrote schemas/scenario.schema.json');
