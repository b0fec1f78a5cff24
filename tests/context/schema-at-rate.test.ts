/**
 * A schema's text bounds follow the model's measured rate: sized at three characters a token, a
 * 600-character field is 400 tokens for a model that writes 1.5, more than a 400-token cap. Sent
 * through a fitted call, the bounds shrink so the longest allowed answer fits its cap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fittedChat } from '../../src/context/fitted-call.js';
import { decisionSchema, jsonSchemaOf } from '../../src/formats/council/packet-schema.js';
import {
  answerJsonSchema,
  boundedText,
  schemaAtRate,
  worstCaseAnswerTokens,
} from '../../src/judging/answer-fields.js';
import { OpenAiProvider } from '../../src/llm/openai-provider.js';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';

const schema = answerJsonSchema(
  z.object({ summary: boundedText(600), why: boundedText(300), stronger: z.enum(['a', 'b', 'even']) }),
);
const CAP = 400;

describe('text bounds at the model’s rate', () => {
  it('a schema sized at 3 characters a token overflows its cap at 1.5, and fits once scaled', () => {
    expect(worstCaseAnswerTokens(schema)).toBeLessThanOrEqual(CAP);
    expect(worstCaseAnswerTokens(schema, 1.5)).toBeGreaterThan(CAP);
    const scaled = schemaAtRate(schema, 1.5);
    expect(worstCaseAnswerTokens(scaled, 1.5)).toBeLessThanOrEqual(CAP);
    const properties = scaled.properties as Record<string, { maxLength?: number; enum?: string[] }>;
    expect(properties.summary?.maxLength).toBe(300);
    expect(properties.why?.maxLength).toBe(150);
    expect(properties.stronger?.enum).toEqual(['a', 'b', 'even']);
    // A model at 3 or more characters a token keeps the bounds as they are.
    expect(schemaAtRate(schema, 4)).toBe(schema);
  });

  it("never shrinks a bound below what the field's own format needs: the council's due date keeps 10 characters", () => {
    const decision = jsonSchemaOf(decisionSchema(1200));
    const due = (of: Record<string, unknown>) =>
      (of.properties as Record<string, { items: { properties: Record<string, { maxLength?: number }> } }>)
        .next_actions?.items.properties?.due?.maxLength;
    expect(due(decision)).toBe(10);
    for (const rate of [2.9, 2, 1.5, 1]) expect(due(schemaAtRate(decision, rate))).toBe(10);
    const stamp = { type: 'string', format: 'date-time', maxLength: 40 };
    expect(schemaAtRate(stamp, 1)).toMatchObject({ maxLength: 20 });
    // A plain text bound still shrinks with the rate.
    expect(schemaAtRate({ type: 'string', maxLength: 10 }, 1.5)).toMatchObject({ maxLength: 5 });
  });

  describe('through a fitted call', () => {
    let server: MockOllama;
    beforeAll(async () => {
      server = await startMockOllama({ models: ['tiny'], vocabularies: { tiny: 'small' } });
    });
    afterAll(async () => {
      await server.close();
    });

    it('sends the bounds scaled to the measured rate, and the answer closes within its cap', async () => {
      const provider = new OpenAiProvider({ baseUrl: `${server.url}/v1` });
      const answer = await fittedChat(
        provider,
        {
          model: 'tiny',
          messages: [
            { role: 'system', content: 'You judge a debate.' },
            { role: 'user', content: 'Nothing said yet.' },
            { role: 'user', content: 'Judge round 1 as JSON.' },
          ],
          maxTokens: CAP,
          contextWindow: 4096,
          temperature: 0.2,
          seed: 4,
          jsonSchema: schema,
        },
        {
          what: 'Judge (judgement)',
          policy: { attempts: 1, backoffMs: 0, maxBackoffMs: 0 },
          rates: new Map([['tiny', 1.5]]),
        },
      );
      const sent = server.requests.filter((item) => item.path === '/v1/chat/completions').at(-1)?.body as {
        response_format: { json_schema: { schema: Record<string, unknown> } };
      };
      const bounds = sent.response_format.json_schema.schema.properties as Record<
        string,
        { maxLength?: number }
      >;
      expect(bounds.summary?.maxLength).toBe(300);
      expect(worstCaseAnswerTokens(sent.response_format.json_schema.schema, 1.5)).toBeLessThanOrEqual(CAP);
      expect(answer.result.stopReason).toBe('stop');
      expect(JSON.parse(answer.result.text)).toHaveProperty('stronger');
    });
  });
});
