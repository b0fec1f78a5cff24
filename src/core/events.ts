/**
 * The run's vocabulary: every completed step becomes one of these events, appended to the run's
 * `events.jsonl` before the next step begins. State is a fold over them; nothing else is persisted.
 */

/**
 * The scenario a run-start event records. The core knows no scenario schema, so the config layer,
 * which does, names the type here (`config/scenario.ts` adds `scenario` to this interface): the
 * events stay fully typed without the core importing what stands above it.
 */
// biome-ignore lint/suspicious/noEmptyInterface: config/scenario.ts fills it in by declaration merging
export interface RecordedScenarioType {}
type RecordedScenario = RecordedScenarioType extends { scenario: infer S } ? S : unknown;

export type PositionLabel = 'X' | 'Y';
/**
 * How a run stands. `degraded`: the debate ran to its end, but failures stand in its record and
 * decided part of it (emergency statements, void votes, abstaining judges, failed roles, states
 * cut by the budget).
 */
export type RunStatus = 'running' | 'completed' | 'degraded' | 'stopped' | 'failed';

/** Scores and vote in the SRS's evaluation template, plus who gave them. */
export interface Evaluation {
  round_number: number;
  position_y_performance: Record<string, number>;
  /** Weighted total: sum of weight × score, computed by the engine, never taken from the model. */
  total_score: number;
  comments: string;
  continue_vote: boolean;
  /** The judge's view: did this round bring new substantive arguments? (Drives the judge early stop.) */
  new_arguments?: boolean;
  /**
   * The vote contradicts the judge's own scores: continue with a weighted total under the scale's
   * midpoint, or rotate above it. The vote is kept as cast, and flagged.
   */
  inconsistent?: boolean;
}

/** A structured answer that could not be used, kept in the record as the model wrote it. */
export interface AnswerProblem {
  /** `cut-at-cap`: stopped at its token cap mid-answer; `not-json`: no usable JSON; `schema`: JSON without the fields asked for. */
  cause: 'cut-at-cap' | 'not-json' | 'schema';
  problem: string;
  /** The start of the answer as written (at most 2000 characters). */
  raw: string;
}

/** A number an answer gave outside its schema's bounds, and the bound it was held to. */
export interface ClampedNumber {
  /** Where in the answer: `confidence`, `position_y_performance.logic`. */
  field: string;
  given: number;
  kept: number;
}

export interface RunStartEvent {
  type: 'run-start';
  runId: string;
  format: string;
  /** The scenario exactly as used, context files included, so a run can resume without its file. */
  scenario: RecordedScenario;
  engineVersion: string;
  /** The run spoke to Agora's built-in Ollama simulator (`agora demo`, `serve --demo`): its text is generated, not a model's. */
  simulated?: boolean;
}

export interface TurnEndEvent {
  type: 'turn-end';
  round: number;
  agent: string;
  position: PositionLabel;
  model: string;
  text: string;
  /** Prompt tokens the server counted, over every attempt of the call. */
  promptTokens: number;
  /** Of `promptTokens`, those the server served from its prompt cache; absent when it did not say (Ollama). */
  cachedPromptTokens?: number;
  /** Characters of the prompts those tokens count, to measure the model's characters per token. */
  promptChars: number;
  outputTokens: number;
  /** Of `outputTokens`, those spent thinking: not speech, so they use no speaking time. */
  thinkingTokens?: number;
  simulatedSeconds: number;
  /** True when the token budget cut the statement short. */
  truncated: boolean;
  realMs: number;
  /**
   * Of `realMs`, the time the server spent loading the model before it answered (a server that
   * swaps models it cannot hold together); absent when it loaded nothing. Not the speaker's pace.
   */
  loadMs?: number;
  /** Model calls made, retries included. */
  attempts?: number;
  /** The agent's own model, when a fallback model spoke instead. */
  fallbackFrom?: string;
  /** Every attempt failed: the text is an emergency response, not an argument. */
  degraded?: boolean;
  failureReason?: string;
}

export interface VoteCastEvent {
  type: 'vote-cast';
  round: number;
  judge: string;
  model: string;
  /** Null when the judge abstained. */
  evaluation: Evaluation | null;
  abstained: boolean;
  abstainReason?: string;
  /** True when the judge abstained because its model could not be called (not for unusable answers). */
  callFailed?: boolean;
  fallbackFrom?: string;
  /** The judge's unusable answers, before a usable one or the abstention. */
  problems?: AnswerProblem[];
  /** Numbers of the answer outside their bounds, held to them (the answer was used). */
  clamped?: ClampedNumber[];
  attempts: number;
  promptTokens: number;
  /** Of `promptTokens`, those the server served from its prompt cache; absent when it did not say (Ollama). */
  cachedPromptTokens?: number;
  promptChars: number;
  outputTokens: number;
  realMs: number;
}

export type Decision = 'continue' | 'rotate';
/** `void`: no decision, because an infrastructure failure (the debater's emergency response, judges that could not be called) would have made it. */
export type DecidedBy = 'votes' | 'scores' | 'exact-tie' | 'void';

export interface Tally {
  rotateVotes: number;
  continueVotes: number;
  abstentions: number;
  /** Mean weighted total of the judges who did not abstain; null when all abstained. */
  meanScore: number | null;
  decision: Decision;
  decidedBy: DecidedBy;
}

export interface RoundEndEvent {
  type: 'round-end';
  round: number;
  debater: string;
  tally: Tally;
  /** What happened after the vote. */
  outcome: 'continue' | 'rotation' | 'rotation-limit-reached' | 'nobody-eligible' | 'debate-over' | 'void';
  rotation: { from: string; to: string } | null;
  transition: { summary: string; focus: string };
  realMs: number;
}

export interface SummaryEvent {
  type: 'summary';
  /**
   * The first round this part of the running summary covers; absent or 1: it covers every round
   * from the first and replaces the earlier parts. A later part follows on from the one before it.
   */
  fromRound?: number;
  /** The running summary now covers rounds 1 to this one. */
  throughRound: number;
  text: string;
  /** The first answer was cut at its token cap, so a shorter one was asked for: this is it. */
  shortened?: boolean;
  /** Even the shorter answer was cut at its cap: the text ends with a note that says so. */
  cut?: boolean;
  model: string;
  promptTokens: number;
  /** Of `promptTokens`, those the server served from its prompt cache; absent when it did not say (Ollama). */
  cachedPromptTokens?: number;
  promptChars: number;
  outputTokens: number;
  realMs: number;
}

/** A statement in the formal and duel formats (knockout statements are `turn-end`). */
export interface StatementEvent {
  type: 'statement';
  /** preparation, opening, rebuttal, cross-question, cross-answer, closing (formal); argument (duel). */
  phase: string;
  round: number;
  speaker: string;
  /** The speaker's side key: affirmative or negative (formal), a or b (duel). */
  side: string;
  model: string;
  text: string;
  promptTokens: number;
  /** Of `promptTokens`, those the server served from its prompt cache; absent when it did not say (Ollama). */
  cachedPromptTokens?: number;
  promptChars: number;
  outputTokens: number;
  realMs: number;
  attempts: number;
  /** Cut by its token cap. */
  truncated: boolean;
  /** Of `outputTokens`, those spent thinking (never part of `text`). */
  thinkingTokens?: number;
  /** Cut to the word limit. */
  wordLimited?: boolean;
  /** Cut where its time limit ran out (formal `statements.time_limit_seconds`); the text ends with the marker. */
  timeLimited?: boolean;
  /** Generated again once: over the word limit, or failed the moderator's check. */
  regenerated?: boolean;
  /** Strict mode: the moderator's objection, when the statement failed the check twice. */
  flagged?: string;
  /** Whose contribution this one answers (a critique's target). */
  target?: string;
  fallbackFrom?: string;
  degraded?: boolean;
  failureReason?: string;
}

/** A judge's structured answer in the formal and duel formats: a round's judgement or a verdict. */
export interface AssessmentEvent {
  type: 'assessment';
  phase: 'judgement' | 'verdict' | 'synthesis' | 'round-1' | 'round-2' | 'round-3' | 'decision';
  round: number;
  judge: string;
  model: string;
  /** The validated answer; null when the judge abstained. */
  result: Record<string, unknown> | null;
  abstained: boolean;
  reason?: string;
  callFailed?: boolean;
  /** Unusable answers, before a usable one or the abstention. */
  problems?: AnswerProblem[];
  /** Numbers of the answer outside their bounds, held to them (the answer was used). */
  clamped?: ClampedNumber[];
  fallbackFrom?: string;
  promptTokens: number;
  /** Of `promptTokens`, those the server served from its prompt cache; absent when it did not say (Ollama). */
  cachedPromptTokens?: number;
  promptChars: number;
  outputTokens: number;
  realMs: number;
  attempts: number;
}

/** A step that computes or writes something without a model call (the council's consensus, packet, writeback). */
export interface ArtifactEvent {
  type: 'artifact';
  name: string;
  data: Record<string, unknown>;
  /** Files written for it, relative to the run folder (or absolute, outside it). */
  files: string[];
}

/** One claim a statement makes, as the claims extraction gave it. */
export interface ExtractedClaim {
  /** The claim in one sentence. */
  claim: string;
  /** `restated`: it repeats a claim the same side made before. */
  kind: 'new' | 'restated';
  /** The id of the other side's claim it rebuts, or null. */
  answers: string | null;
  /** Evidence or example it names, in logs whose extraction asked for it; empty or absent otherwise. */
  evidence?: string;
}

/** The claims of one statement (knockout), extracted after it was made: the claims ledger's entries. */
export interface ClaimsEvent {
  type: 'claims';
  round: number;
  agent: string;
  position: PositionLabel;
  /**
   * `model`: a small structured call; `heuristic`: key sentences, without a call or in place of an
   * answer that left the statement no claim (`reason` says which); `failed`: the call failed, none recorded.
   */
  source: 'model' | 'heuristic' | 'failed';
  claims: ExtractedClaim[];
  model?: string;
  promptTokens: number;
  /** Of `promptTokens`, those the server served from its prompt cache; absent when it did not say (Ollama). */
  cachedPromptTokens?: number;
  promptChars: number;
  outputTokens: number;
  realMs: number;
  attempts: number;
  reason?: string;
  /** Unusable answers of the extraction call. */
  problems?: AnswerProblem[];
  /** Claims the model gave whose quote is not in the statement: dropped, counted here. */
  unverified?: number;
  /**
   * Of the claims kept, those whose quote matched its sentence with one word changed, left out or
   * added (case and punctuation never count): a small model's copying slip, forgiven and counted.
   */
  nearMatched?: number;
}

/**
 * A commentator's two or three sentences after a round (seed 004's spectator mode): for the
 * audience only, never shown to a debater or a judge and never part of a vote.
 */
export interface CommentaryEvent {
  type: 'commentary';
  round: number;
  model: string;
  /** Empty when the commentator's call failed (`failed` says why). */
  text: string;
  failed?: string;
  promptTokens: number;
  /** Of `promptTokens`, those the server served from its prompt cache; absent when it did not say (Ollama). */
  cachedPromptTokens?: number;
  promptChars: number;
  outputTokens: number;
  realMs: number;
  attempts: number;
}

/** A resumed run: what follows continues the same debate. */
export interface RunResumeEvent {
  type: 'run-resume';
  engineVersion: string;
  /** This segment runs on the built-in simulator (`resume --demo`), which makes the whole run a simulated one. */
  simulated?: boolean;
}

/** Whether any part of a run was spoken by the built-in simulator, from its log. */
export function isSimulated(events: readonly RunEventBody[]): boolean {
  return events.some(
    (event) => (event.type === 'run-start' || event.type === 'run-resume') && event.simulated === true,
  );
}

/** A step that failed for good and left nothing else behind (a summary; turns and votes record their own failures). */
export interface StepFailedEvent {
  type: 'step-failed';
  step: 'summary';
  round: number;
  reason: string;
  /** The model the step was asked of. */
  model?: string;
}

export interface RunEndEvent {
  type: 'run-end';
  status: Exclude<RunStatus, 'running'>;
  stopReason: string;
  error?: string;
  /** With status `degraded`: how many failed steps stand in the record. */
  failedSteps?: number;
}

export type RunEventBody =
  | RunStartEvent
  | RunResumeEvent
  | StepFailedEvent
  | StatementEvent
  | AssessmentEvent
  | ArtifactEvent
  | TurnEndEvent
  | VoteCastEvent
  | RoundEndEvent
  | SummaryEvent
  | ClaimsEvent
  | CommentaryEvent
  | RunEndEvent;

/**
 * Where an event stands in the log's hash chain (see docs/decisions/018-chained-event-log.md):
 * `prev`, the hash of the line before it ('' for the first); `hash`, the SHA-256 of its own line
 * up to this field, which comes last. Logs written before the chain have neither.
 */
export interface ChainLink {
  prev?: string;
  hash?: string;
}

/** An event as stored: a sequence number and a timestamp around the body, and its chain link. */
export type RunEvent = RunEventBody & { seq: number; at: string } & ChainLink;

/** A body as stored in the log, with its sequence number and time. */
export type Stored<T extends RunEventBody> = T & { seq: number; at: string } & ChainLink;
