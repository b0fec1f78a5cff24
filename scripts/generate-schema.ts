/** Writes schemas/scenario.schema.json from the zod schema (`npm run schema`). */
import { writeFileSync } from 'node:fs';
import { scenarioJsonSchemaText } from '../src/config/json-schema.js';
import { finalPacketJsonSchemaText } from '../src/formats/council/packet-schema.js';

writeFileSync(new URL('../schemas/scenario.schema.json', import.meta.url), scenarioJsonSchemaText());
writeFileSync(new URL('../schemas/final-packet.schema.json', import.meta.url), finalPacketJsonSchemaText());
console.log('wrote schemas/scenario.schema.json and schemas/final-packet.schema.json');
