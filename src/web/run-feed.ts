/**
 * Follows one run for a live page: every event in its log (from a given sequence number on), the
 * notices of the step in flight, spectator votes, and whether a process is running it. The log is
 * polled, so it works across processes and survives the viewer restarting.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { RunEvent } from '../core/events.js';
import type { FormatLookup } from '../formats/format-definition.js';
import { ChainCheck } from '../store/event-chain.js';
import { LIVE_FILE, LineTail, type LiveLine } from '../store/live-log.js';
import { lockOwner } from '../store/run-lock.js';
import { parseVotes, SPECTATOR_FILE, type SpectatorVote } from '../store/spectator-votes.js';
import { argumentPanels, changesArgumentMap } from './argument-map-html.js';
import { eventHtml } from './event-html.js';
import { resultHtml } from './outcome-html.js';
import { controlsHtml, spectatorHtml } from './pages.js';
import { buildRunView, chartsHtml, headerHtml, scoreboardHtml, statusOf } from './run-view.js';
import { logTail, readStartRecord } from './start-record.js';
import type { RunView } from './viewed-run.js';

export type FeedMessage =
  | { kind: 'run-event'; id: number; data: { seq: number; type: string; html: string; agent?: string } }
  | {
      kind: 'view';
      data: {
        header: string;
        result: string;
        scoreboard: string;
        charts: string;
        controls: string;
        spectators: string;
        status: string;
        live: boolean;
      };
    }
  | { kind: 'map'; data: { map: string; argumentScores: string } }
  | { kind: 'live'; data: LiveLine['notice'] }
  | { kind: 'worker-failed'; data: { message: string } }
  | { kind: 'log-damaged'; data: { message: string } };

function speakerOf(event: RunEvent): string | undefined {
  switch (event.type) {
    case 'turn-end':
      return event.agent;
    case 'statement':
      return event.speaker;
    case 'vote-cast':
    case 'assessment':
      return event.judge;
    default:
      return undefined;
  }
}

export class RunFeed {
  private readonly events: RunEvent[] = [];
  private readonly spectators: SpectatorVote[] = [];
  private readonly eventTail: LineTail;
  private readonly liveTail: LineTail;
  private readonly spectatorTail: LineTail;
  private live = false;
  private reportedFailure = false;
  /** The log's hash chain, line by line; the first line that does not match ends what is shown. */
  private readonly chain = new ChainCheck();
  private damage: string | null = null;
  private lineNumber = 0;

  constructor(
    private readonly outDir: string,
    readonly runId: string,
    private readonly formats: FormatLookup,
  ) {
    const runDir = path.join(outDir, runId);
    this.eventTail = new LineTail(path.join(runDir, 'events.jsonl'));
    this.liveTail = new LineTail(path.join(runDir, LIVE_FILE));
    this.spectatorTail = new LineTail(path.join(runDir, SPECTATOR_FILE));
  }

  get runDir(): string {
    return path.join(this.outDir, this.runId);
  }

  /** Everything so far: the events after `afterSeq`, the current view and the step in flight. */
  start(afterSeq: number): FeedMessage[] {
    const messages = this.poll(true).filter(
      (message) => message.kind !== 'run-event' || message.id > afterSeq,
    );
    return messages;
  }

  /**
   * The log's new events, up to the first line that is not an event or does not match the hash
   * chain: nothing after it is shown, and `damage` says which line it is and why.
   */
  private freshEvents(): RunEvent[] {
    const events: RunEvent[] = [];
    for (const line of this.eventTail.read()) {
      if (this.damage !== null) break;
      this.lineNumber += 1;
      let problem: string | null;
      try {
        const event = JSON.parse(line) as RunEvent;
        problem = this.chain.check(line, event);
        if (problem === null) events.push(event);
      } catch {
        problem = 'not a valid event';
      }
      if (problem !== null) {
        this.damage = `events.jsonl line ${this.lineNumber} does not match the log as written: ${problem}. Nothing after it is shown; \`agora verify ${this.runId}\` checks the whole log.`;
      }
    }
    return events;
  }

  /** What changed since the last call. */
  poll(initial = false): FeedMessage[] {
    const messages: FeedMessage[] = [];
    const damagedBefore = this.damage;
    const fresh = this.freshEvents();
    if (this.damage !== null && (initial || damagedBefore === null)) {
      messages.push({ kind: 'log-damaged', data: { message: this.damage } });
    }
    const view = () => this.view();
    for (const event of fresh) {
      this.events.push(event);
      const agent = speakerOf(event);
      messages.push({
        kind: 'run-event',
        id: event.seq,
        data: {
          seq: event.seq,
          type: event.type,
          html: eventHtml(event, this.events[0]?.type === 'run-start' ? this.events[0].scenario : undefined)
            .value,
          ...(agent ? { agent } : {}),
        },
      });
    }
    const votes = parseVotes(this.spectatorTail.read());
    this.spectators.push(...votes);
    // A log that ends with the run's end is a finished run, whatever lock is still on its folder
    // (a worker, or the copy of a shared database, lets go of it a moment after the last event).
    const live = this.events.at(-1)?.type !== 'run-end' && lockOwner(this.runDir) !== null;
    const lastSeq = this.events.at(-1)?.seq ?? 0;
    for (const line of this.liveTail.read()) {
      try {
        const parsed = JSON.parse(line) as LiveLine;
        if (parsed.after >= lastSeq && live) messages.push({ kind: 'live', data: parsed.notice });
      } catch {
        // Live notices are best effort.
      }
    }
    if (initial || fresh.length > 0 || votes.length > 0 || live !== this.live) {
      this.live = live;
      messages.push(this.viewMessage(view()));
    }
    // The argument map is large: it is sent on its own, and only when a statement, its claims or a judge came.
    if (initial || fresh.some(changesArgumentMap))
      messages.push({ kind: 'map', data: argumentPanels(this.events) });
    if (
      !this.reportedFailure &&
      this.events.length === 0 &&
      !existsSync(path.join(this.runDir, 'events.jsonl'))
    ) {
      const failure = this.workerFailure();
      if (failure) {
        this.reportedFailure = true;
        messages.push({ kind: 'worker-failed', data: { message: failure } });
      }
    }
    return messages;
  }

  view(): RunView {
    return buildRunView(this.runId, this.events, this.spectators, this.live, this.formats);
  }

  private viewMessage(view: RunView): FeedMessage {
    return {
      kind: 'view',
      data: {
        header: headerHtml(view).value,
        result: resultHtml(view).value,
        scoreboard: scoreboardHtml(view).value,
        charts: chartsHtml(view).value,
        controls: controlsHtml(view).value,
        spectators: spectatorHtml(view).value,
        status: statusOf(view),
        live: view.live,
      },
    };
  }

  /** A debate started from the viewer whose worker ended before writing anything. */
  private workerFailure(): string | null {
    const record = readStartRecord(this.outDir, this.runId);
    if (!record || record.pid === null) return null;
    try {
      process.kill(record.pid, 0);
      return null;
    } catch {
      return logTail(record.logFile) || 'the worker process ended without output';
    }
  }
}
