import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scenarioJsonSchemaText } from '../../src/config/json-schema.js';
import { finalPacketJsonSchemaText } from '../../src/formats/council/packet-schema.js';
import { projectRoot } from '../helpers/cli.js';

describe('schemas/scenario.schema.json', () => {
  it('matches the zod schema (run `npm run schema` after changing it)', () => {
    const committed = readFileSync(path.join(projectRoot, 'schemas', 'scenario.schema.json'), 'utf8');
    expect(committed).toBe(scenarioJsonSchemaText());
  });

  it('has a current Final Packet schema beside it (run `npm run schema` after changing the packet)', () => {
    const committed = readFileSync(path.join(projectRoot, 'schemas', 'final-packet.schema.json'), 'utf8');
    expect(committed).toBe(finalPacketJsonSchemaText());
    expect(JSON.parse(committed).required).toEqual(
      expect.arrayContaining(['run_id', 'mode', 'next_actions', 'trace']),
    );
  });

  it('is referenced by every shipped scenario for editor autocompletion', () => {
    for (const name of ['abortion', 'god-exists', 'universal-healthcare']) {
      const text = readFileSync(path.join(projectRoot, 'scenarios', `${name}.yaml`), 'utf8');
      expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../schemas/scenario.schema.json');
    }
  });

  it('describes every format, with the knockout defaults', () => {
    type Variant = {
      properties: Record<string, { const?: string; properties?: Record<string, { default?: unknown }> }>;
      required: string[];
    };
    const schema = JSON.parse(scenarioJsonSchemaText()) as { anyOf: Variant[] };
    const formats = schema.anyOf.map((variant) => variant.properties.format?.const);
    expect(formats).toEqual(['knockout', 'formal', 'duel', 'critique', 'council', 'truth']);
    const knockout = schema.anyOf[0] as Variant;
    expect(knockout.required).toEqual(expect.arrayContaining(['topic', 'positions', 'agents']));
    expect(knockout.properties.debate?.properties?.rounds?.default).toBe(6);
    expect(knockout.properties.timer?.properties?.tokens_per_second?.default).toBe(3.75);
  });
});
