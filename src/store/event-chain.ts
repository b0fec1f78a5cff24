/**
 * The event log's hash chain. Each line carries `prev`, the hash of the line before it, and ends
 * with `hash`, the SHA-256 of its own text up to that field; so a line changed by hand no longer
 * matches its hash, and a line changed with its hash made anew no longer matches the next line's
 * `prev`. Lines written before the chain carry neither: they are read as they are, counted as
 * unchained, and the first chained line after them links to the hash of the last one's text.
 */
import { createHash } from 'node:crypto';
import type { RunEvent, RunEventBody } from '../core/events.js';

/** The hash member the writer puts last on each line. */
const HASH_MEMBER = /,"hash":"([0-9a-f]{64})"\}$/;

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** What the next event's `prev` is after `last` ('' for the first event of a log). */
export function linkAfter(last: RunEvent | undefined): string {
  if (last === undefined) return '';
  // An event written before the chain: the hash of its line, which JSON.stringify wrote.
  return last.hash ?? sha256(JSON.stringify(last));
}

/** The event with its place in the chain, and the line that stores it (without the newline). */
export function sealEvent(
  stamp: { seq: number; at: string },
  body: RunEventBody,
  prev: string,
): { event: RunEvent; line: string } {
  const text = JSON.stringify({ ...stamp, prev, ...body });
  const hash = sha256(text);
  const line = `${text.slice(0, -1)},"hash":"${hash}"}`;
  return { event: JSON.parse(line) as RunEvent, line };
}

/** How a log's lines stand with the chain, once read. */
export interface ChainReport {
  /** Lines that carry a matching link. */
  chained: number;
  /** Lines written before the chain (they cannot be checked). */
  unchained: number;
}

/**
 * Checks a log's lines in order. `check` returns null for a line that fits, or what is wrong with
 * it, in words that follow "line N:".
 */
export class ChainCheck {
  private link = '';
  readonly report: ChainReport = { chained: 0, unchained: 0 };

  check(line: string, event: RunEvent): string | null {
    const member = HASH_MEMBER.exec(line);
    if (!member) {
      if (event.hash !== undefined || event.prev !== undefined) {
        return 'its hash is not at the end of the line, where the writer puts it (the line was rewritten by hand)';
      }
      if (this.report.chained > 0) {
        return 'it carries no hash though the lines before it do (it was added or rewritten by hand)';
      }
      this.report.unchained += 1;
      this.link = sha256(line);
      return null;
    }
    const hash = member[1] as string;
    if (sha256(`${line.slice(0, member.index)}}`) !== hash) {
      return 'its text does not match its hash (it was changed after it was written)';
    }
    if (event.prev !== this.link) {
      return 'it does not follow the line before it (a line before it was changed, removed or moved)';
    }
    this.link = hash;
    this.report.chained += 1;
    return null;
  }
}

/** Says how a log stands with the chain, in a few words. */
export function chainSummary(report: ChainReport): string {
  if (report.unchained === 0) return `${report.chained} events, chained`;
  if (report.chained === 0)
    return `${report.unchained} events, unchained (written before events were chained: they cannot be checked)`;
  return `${report.chained + report.unchained} events, the first ${report.unchained} unchained (written before events were chained: they cannot be checked)`;
}

/** What checking a log's lines found: how far the chain covers it, and the first line that does not fit. */
export interface LinesCheck {
  events: number;
  chain: ChainReport;
  /** The first bad line (1-based) and what is wrong with it. */
  problem: { line: number; message: string } | null;
}

/** Checks a log's lines (a file's, or the shared database's): JSON, sequence numbers and chain. */
export function checkLines(lines: readonly string[]): LinesCheck {
  const chain = new ChainCheck();
  for (const [index, line] of lines.entries()) {
    const fail = (message: string): LinesCheck => ({
      events: index,
      chain: chain.report,
      problem: { line: index + 1, message },
    });
    let event: RunEvent;
    try {
      event = JSON.parse(line) as RunEvent;
    } catch {
      return fail('not a valid event (the log is damaged at this line)');
    }
    if (typeof event !== 'object' || event === null || event.seq !== index) {
      return fail(`unexpected event (expected sequence number ${index})`);
    }
    const problem = chain.check(line, event);
    if (problem !== null) return fail(`the line does not match the log's hash chain: ${problem}`);
  }
  return { events: lines.length, chain: chain.report, problem: null };
}
