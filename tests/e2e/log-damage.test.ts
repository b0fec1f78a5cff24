/**
 * What happens to a log outside Agora, short of a change to its events: a last line that lost its
 * final newline, a log an editor saved with Windows line endings or a byte-order mark, lines cut
 * off its end. Each is named for what it is, and the run goes on or is repaired without a step
 * lost; what the chain cannot catch is said where a user reads.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgora, tempDir } from '../helpers/cli.js';
import { comparable, onlyRunDir, readTranscript } from '../helpers/transcripts.js';

async function demoRun(): Promise<{ out: string; runDir: string; runId: string; log: string }> {
  const out = path.join(tempDir(), 'runs');
  const demo = await runAgora(['demo', '--profile', 'instant', '--out', out, '--quiet']);
  expect(demo.code).toBe(0);
  const runDir = onlyRunDir(out);
  return { out, runDir, runId: path.basename(runDir), log: path.join(runDir, 'events.jsonl') };
}

const UNENDED =
  /had lost its final newline; it is a whole event, so the newline was added and nothing is redone/;

describe('a last line that lost its final newline', () => {
  it('is ended before resume appends (said on stderr and in run.log); verify, show and resume all work after', async () => {
    const { out, runDir, runId, log } = await demoRun();
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    // A run killed after its last step, whose last line then lost its newline.
    const kept = lines.slice(0, -1);
    writeFileSync(log, kept.join('\n'));
    expect((await runAgora(['verify', runId, '--out', out])).code).toBe(0);

    const resumed = await runAgora(['resume', runId, '--out', out, '--quiet']);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(UNENDED);
    expect(readFileSync(path.join(runDir, 'run.log'), 'utf8')).toMatch(UNENDED);
    const text = readFileSync(log, 'utf8');
    // Nothing kept was redone or changed: the old lines stand, each ended, and the run went on after them.
    expect(text.startsWith(`${kept.join('\n')}\n`)).toBe(true);
    const after = text.trimEnd().split('\n');
    expect(after.slice(kept.length).map((line) => (JSON.parse(line) as { type: string }).type)).toEqual([
      'run-resume',
      'run-end',
    ]);

    const verified = await runAgora(['verify', runId, '--out', out]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^ok /m);
    expect((await runAgora(['show', runId, '--out', out])).code).toBe(0);
    const again = await runAgora(['resume', runId, '--out', out]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already completed');
    expect(again.stderr).not.toMatch(UNENDED);

    // The run-end line itself, unended: resume says so, and that the run had already completed.
    writeFileSync(log, text.trimEnd());
    const ended = await runAgora(['resume', runId, '--out', out]);
    expect(ended.code).toBe(0);
    expect(ended.stdout).toContain('already completed');
    expect(ended.stderr).toMatch(UNENDED);
    expect(readFileSync(log, 'utf8')).toBe(text);
    expect(readFileSync(path.join(runDir, 'run.log'), 'utf8').match(new RegExp(UNENDED, 'g'))).toHaveLength(
      2,
    );
  });

  it('a last line cut off in the middle of an event is dropped instead, and resume says which', async () => {
    const { out, runDir, runId, log } = await demoRun();
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    const last = lines.at(-1) as string;
    writeFileSync(log, `${lines.slice(0, -1).join('\n')}\n${last.slice(0, 40)}`);
    const resumed = await runAgora(['resume', runId, '--out', out, '--quiet']);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(/was cut off by a crash; it was dropped and that step will be redone/);
    expect(readFileSync(path.join(runDir, 'run.log'), 'utf8')).toMatch(/was cut off by a crash/);
    expect((await runAgora(['verify', runId, '--out', out])).code).toBe(0);
  });
});

describe('a log an editor saved', () => {
  const CRLF = /the log has Windows line endings \(CRLF\): it was saved by an editor/;
  const BOM = /the log has a byte-order mark \(BOM\) at its start: it was saved by an editor/;

  it('with Windows line endings: every command names them, not the chain, with the fix; verify --repair undoes them', async () => {
    const { out, runDir, runId, log } = await demoRun();
    const intact = readFileSync(log, 'utf8');
    writeFileSync(log, intact.replace(/\n/g, '\r\n'));
    for (const command of [
      ['show', runId],
      ['resume', runId],
      ['verify', runId],
    ]) {
      const result = await runAgora([...command, '--out', out]);
      expect(result.code, command[0]).toBe(7);
      const said = `${result.stdout}${result.stderr}`;
      expect(said).toMatch(CRLF);
      expect(said).toContain('The events themselves are intact');
      expect(said).toContain(`agora verify --repair ${runDir}`);
      expect(said).toContain(`sed -i 's/\\r$//' ${log}`);
      expect(said).not.toContain("does not match the log's hash chain");
    }
    const repaired = await runAgora(['verify', runId, '--out', out, '--repair']);
    expect(repaired.code).toBe(0);
    expect(repaired.stdout).toMatch(
      /^repaired +\S+ +Windows line endings \(CRLF\) undone; \d+ events, chained/m,
    );
    expect(readFileSync(log, 'utf8')).toBe(intact);
    expect((await runAgora(['show', runId, '--out', out])).code).toBe(0);
  });

  it('with a byte-order mark: named, and the plain command line it gives undoes it', async () => {
    const { out, runId, log } = await demoRun();
    const intact = readFileSync(log, 'utf8');
    writeFileSync(log, `\uFEFF${intact}`);
    const shown = await runAgora(['show', runId, '--out', out]);
    expect(shown.code).toBe(7);
    expect(shown.stderr).toMatch(BOM);
    const command = /or: (sed -i .*)$/m.exec(shown.stderr)?.[1];
    expect(command).toBe(`sed -i '1s/^\\xEF\\xBB\\xBF//' ${log}`);
    execFileSync('sh', ['-c', command as string]);
    expect(readFileSync(log, 'utf8')).toBe(intact);
    expect((await runAgora(['show', runId, '--out', out])).code).toBe(0);
  });

  it('with a changed line as well: both are named, and --repair leaves the log alone', async () => {
    const { out, runId, log } = await demoRun();
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    const target = lines.findIndex((line, index) => index >= 4 && /"text":"[^"]*\b(the|a)\b/.test(line));
    expect(target).toBeGreaterThan(0);
    lines[target] = (lines[target] as string).replace(/"text":"([^"]*?)\b(the|a)\b/, '"text":"$1not $2');
    const damaged = `\uFEFF${lines.join('\r\n')}\r\n`;
    writeFileSync(log, damaged);
    const repair = await runAgora(['verify', runId, '--out', out, '--repair']);
    expect(repair.code).toBe(7);
    expect(repair.stdout).toMatch(
      /the log has Windows line endings \(CRLF\) and a byte-order mark \(BOM\) at its start: it was saved by an editor/,
    );
    expect(repair.stdout).toContain(
      `with that undone, it is still damaged at line ${target + 1}: the line does not match the log's hash chain`,
    );
    expect(readFileSync(log, 'utf8')).toBe(damaged);
  });
});

describe('what the chain does not catch', () => {
  it('lines cut off the end read as a shorter valid log, which resume redoes', async () => {
    const { out, runDir, runId, log } = await demoRun();
    const transcript = () => comparable(readTranscript(runDir));
    const whole = transcript();
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    writeFileSync(log, `${lines.slice(0, -4).join('\n')}\n`);
    const verified = await runAgora(['verify', runId, '--out', out]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^ok /m);
    expect((await runAgora(['resume', runId, '--out', out, '--quiet'])).code).toBe(0);
    expect(transcript()).toEqual(whole);
  });
});
