import { describe, expect, it } from 'vitest';
import { jsonFromSchema } from '../../src/mock-ollama/json-from-schema.js';
import { createRng } from '../../src/mock-ollama/random.js';

const schema = {
  type: 'object',
  properties: {
    confidence: { type: 'integer', minimum: 0, maximum: 100 },
    share: { type: 'integer', minimum: 0, maximum: 100 },
  },
  required: ['confidence', 'share'],
};

describe('the simulator answers a 0-100 confidence as a small model does', () => {
  it('reports it high, 55 to 95, while other 0-100 numbers span the scale', () => {
    const answers = Array.from(
      { length: 200 },
      (_, index) =>
        jsonFromSchema(schema, createRng(`seed-${index}`)) as { confidence: number; share: number },
    );
    const confidences = answers.map((answer) => answer.confidence);
    expect(Math.min(...confidences)).toBeGreaterThanOrEqual(55);
    expect(Math.max(...confidences)).toBeLessThanOrEqual(95);
    const shares = answers.map((answer) => answer.share);
    expect(Math.min(...shares)).toBeLessThan(30);
    expect(Math.max(...shares)).toBeGreaterThan(70);
  });
});
