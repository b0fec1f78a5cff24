/** The event log's hash chain: what a log written by Agora carries, and each way a line can be changed. */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEventBody } from '../../src/core/events.js';
import { checkLines } from '../../src/store/event-chain.js';
import { EventLog, readEventLog } from '../../src/store/event-log.js';
import { tempDir } from '../helpers/cli.js';

const bodies: RunEventBody[] = [
  { type: 'run-resume', engineVersion: 'test' },
  { type: 'commentary', round: 1, commentator: 'C', model: 'm', text: 'first' } as unknown as RunEventBody,
  { type: 'commentary', round: 2, commentator: 'C', model: 'm', text: 'second' } as unknown as RunEventBody,
  { type: 'commentary', round: 3, commentator: 'C', model: 'm', text: 'third' } as unknown as RunEventBody,
];

function writtenLog(): string {
  const file = path.join(tempDir(), 'events.jsonl');
  const log = EventLog.open(file, 0);
  for (const body of bodies) log.append(body, new Date(Date.UTC(2026, 0, 1)));
  log.close();
  return file;
}

function lines(file: string): string[] {
  return readFileSync(file, 'utf8').trimEnd().split('\n');
}

describe('the event chain', () => {
  it('links every line to the one before it, and reads back as written', () => {
    const file = writtenLog();
    const { events, chain } = readEventLog(file);
    expect(chain).toEqual({ chained: 4, unchained: 0 });
    expect(events[0]?.prev).toBe('');
    for (let seq = 1; seq < events.length; seq += 1) expect(events[seq]?.prev).toBe(events[seq - 1]?.hash);
    expect(lines(file).every((line) => /,"hash":"[0-9a-f]{64}"\}$/.test(line))).toBe(true);
  });

  it('names the line whose text was changed, still valid JSON', () => {
    const file = writtenLog();
    const changed = lines(file);
    changed[2] = (changed[2] as string).replace('"second"', '"SECOND"');
    writeFileSync(file, `${changed.join('\n')}\n`);
    expect(() => readEventLog(file)).toThrow(
      `${file}:3: the line does not match the log's hash chain: its text does not match its hash`,
    );
    expect(checkLines(changed).problem).toMatchObject({ line: 3 });
  });

  it('names the line after one changed with its hash made anew', async () => {
    const { sha256 } = await import('../../src/store/event-chain.js');
    const file = writtenLog();
    const changed = lines(file);
    const body = (changed[1] as string)
      .replace(/,"hash":"[0-9a-f]{64}"\}$/, '}')
      .replace('"first"', '"FIRST"');
    changed[1] = `${body.slice(0, -1)},"hash":"${sha256(body)}"}`;
    expect(checkLines(changed).problem).toMatchObject({
      line: 3,
      message: expect.stringContaining('does not follow the line before it'),
    });
  });

  it('names a line removed from the middle, and a line added without a hash', () => {
    const file = writtenLog();
    const removed = lines(file).filter((_, index) => index !== 2);
    expect(checkLines(removed).problem?.line).toBe(3);
    const added = [
      ...lines(file),
      JSON.stringify({ seq: 4, at: '2026-01-01T00:00:00.000Z', type: 'run-resume' }),
    ];
    expect(checkLines(added).problem).toMatchObject({
      line: 5,
      message: expect.stringContaining('carries no hash'),
    });
  });

  it('reads a log written before the chain as unchained, and chains what a resume appends to it', () => {
    const file = path.join(tempDir(), 'events.jsonl');
    const old = [0, 1].map((seq) => JSON.stringify({ seq, at: '2026-01-01T00:00:00.000Z', ...bodies[seq] }));
    writeFileSync(file, `${old.join('\n')}\n`);
    const before = readEventLog(file);
    expect(before.chain).toEqual({ chained: 0, unchained: 2 });
    const log = EventLog.open(file, 2, before.events.at(-1));
    log.append(bodies[2] as RunEventBody, new Date());
    log.close();
    expect(readEventLog(file).chain).toEqual({ chained: 1, unchained: 2 });
    // The unchained lines before the chain are covered by it from then on.
    const changed = lines(file);
    changed[1] = (changed[1] as string).replace('"first"', '"FIRST"');
    expect(checkLines(changed).problem?.line).toBe(3);
    appendFileSync(file, '');
  });
});
