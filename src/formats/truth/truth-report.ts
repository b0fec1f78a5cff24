/**
 * A truth run as a person reads it: each question with the answer the judge believed under each
 * condition, accuracy per condition with its 95% interval, the paired differences, and how often a
 * debater model won while arguing the wrong answer.
 */
import { plural } from '../../core/plural.js';
import type { TextLayout } from '../../core/text-layout.js';
import { renderTextTable } from '../../render/text-table.js';
import { fallbackNote } from '../shared/fallback-note.js';
import { degradedNote, type RunEnding, unfinishedSentence } from '../shared/run-ending.js';
import { modelCalls, sequenceFailures } from '../shared/sequence-state.js';
import {
  conditionRecords,
  JUDGE_QUESTION,
  readingOrder,
  readingsOf,
  recordedQuestions,
  type TruthState,
} from './truth-plan.js';
import { quotesFollowed, quoteTallies, recordedQuotes } from './truth-quotes.js';
import {
  type DifferenceRow,
  type GroupSummary,
  type QuestionResult,
  questionResults,
  type TruthSummary,
  truthSummary,
  UNPARSED_LIMIT,
} from './truth-results.js';
import {
  accuracyTable,
  differencesTable,
  persuasivenessTable,
  quotesTable,
  type TruthTable,
} from './truth-tables.js';

/**
 * The transcript of a state, made once: transcript.json, transcript.md and the report are all
 * written from it each time the run's files are refreshed.
 */
const transcripts = new WeakMap<TruthState, ReturnType<typeof buildTranscript>>();
export function truthTranscript(state: TruthState): ReturnType<typeof buildTranscript> {
  const known = transcripts.get(state);
  if (known) return known;
  const transcript = buildTranscript(state);
  transcripts.set(state, transcript);
  return transcript;
}

function buildTranscript(state: TruthState) {
  const { scenario } = state;
  const questions = questionResults(state);
  const quotes = recordedQuotes(state);
  return {
    runId: state.runId,
    format: 'truth' as const,
    title: scenario.title ?? null,
    topic: scenario.topic,
    seed: scenario.seed,
    conditions: scenario.conditions,
    debaters: {
      a: { name: scenario.debaters.a.name, model: scenario.debaters.a.model },
      b: { name: scenario.debaters.b.name, model: scenario.debaters.b.model },
    },
    judge: { name: scenario.judge.name, model: scenario.judge.model },
    plannedQuestions: recordedQuestions(state).length,
    status: state.end?.status ?? ('running' as const),
    stopReason: state.end?.stopReason ?? null,
    error: state.end?.error ?? null,
    questions,
    summary: truthSummary(state),
    quotes,
    quoteTallies: quoteTallies(quotes),
    quotesFollowed: quotesFollowed(state, quotes),
    stats: {
      verdicts: state.assessments.filter((item) => item.phase === 'verdict').length,
      outputTokens: state.outputTokens,
      modelCalls: modelCalls(state),
      degradedTurns: state.statements.filter((statement) => statement.degraded).length,
    },
    startedAt: state.startedAt,
    updatedAt: state.updatedAt,
  };
}

interface TruthRecord extends RunEnding {
  judge?: { model?: string };
  plannedQuestions?: number;
  questions?: Array<{ verdicts?: Array<{ correct?: boolean | null }> }>;
  summary?: Pick<TruthSummary, 'conditions'> & Partial<Pick<TruthSummary, 'unparsed'>>;
}

/** The sentence that marks a run whose verdicts could too often not be read. */
function unparsedWarning(unparsed: TruthSummary['unparsed'] | undefined): string | null {
  if (!unparsed?.overLimit) return null;
  return `${unparsed.count} of ${unparsed.of} readings could not be read (more than ${Math.round(UNPARSED_LIMIT * 100)}%), so this run's accuracy is not counted`;
}

/** The run's result in one sentence, from its transcript.json. */
export function truthOutcome(transcript: unknown): string {
  const record = (transcript ?? {}) as TruthRecord;
  const rows = record.summary?.conditions ?? [];
  const scored = rows
    .filter((row) => row.accuracy)
    .map((row) => `${row.condition} ${row.accuracy?.correct} of ${row.accuracy?.n}`)
    .join(', ');
  const judged = (record.questions ?? []).filter((question) =>
    (question.verdicts ?? []).every((verdict) => verdict.correct != null),
  ).length;
  const progress = `after ${plural(judged, 'question')} of ${record.plannedQuestions ?? '?'}`;
  const unfinished = unfinishedSentence(record, progress, scored, 'there is no result');
  if (unfinished !== null) return unfinished;
  const judge = record.judge?.model ? `The judge (${record.judge.model}) was right` : 'The judge was right';
  const warning = unparsedWarning(record.summary?.unparsed);
  return `${judge}: ${scored || 'no verdict was usable'}${degradedNote(record)}${warning ? `; but ${warning}` : ''}.`;
}

const mark = (correct: boolean | null) => (correct === true ? 'right' : correct === false ? 'WRONG' : '—');

/** One reading's verdict in a cell: "right (80%)", "WRONG (65%)", "no verdict" or "—". */
function readingCell(verdict: QuestionResult['verdicts'][number] | undefined): string {
  if (!verdict || verdict.believed === null) return verdict?.noVerdict ? 'no verdict' : '—';
  return `${mark(verdict.correct)} (${verdict.confidence ?? '?'}%)`;
}

/** Per question and condition, its readings in order (the drawn order, then the other), "/" between. */
function questionRows(questions: QuestionResult[], conditions: readonly string[]) {
  return questions.map((question) => [
    question.number,
    question.answer,
    ...conditions.map((condition) => {
      const readings = question.verdicts.filter((item) => item.condition === condition);
      return readings.length === 0 ? '—' : readings.map(readingCell).join(' / ');
    }),
  ]);
}

/** Debate against the judge alone, on passages and on the control set, and what that says. */
function groupFinding(groups: GroupSummary[]): string | null {
  const of = (group: GroupSummary): DifferenceRow | undefined =>
    group.differences.find((row) => row.first === 'debate' && row.second === 'direct');
  const passage = groups.find((group) => group.group === 'passage');
  const control = groups.find((group) => group.group === 'control');
  const onPassage = passage ? of(passage)?.clustered : null;
  const onControl = control ? of(control)?.clustered : null;
  if (!onPassage || !onControl) return null;
  const points = (value: number) =>
    `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(Math.round(value * 100))}`;
  const said = (d: NonNullable<typeof onPassage>) =>
    `${points(d.difference)} points (${points(d.low)} to ${points(d.high)})`;
  const helped = (d: NonNullable<typeof onPassage>) => d.low > 0;
  const verdict =
    helped(onPassage) && !helped(onControl)
      ? 'debate helped on passages and not on the control questions, as the research predicts'
      : helped(onPassage) && helped(onControl)
        ? 'debate helped on both'
        : helped(onControl)
          ? 'debate helped on the control questions but not on passages, against what the research predicts'
          : 'this run cannot tell debate from the judge alone on either (the intervals include zero)';
  return `Debate against the judge alone: ${said(onPassage)} on passage questions, ${said(onControl)} on the control questions; ${verdict}.`;
}

function summaryLines(transcript: ReturnType<typeof truthTranscript>, layout: TextLayout): string[] {
  const { summary } = transcript;
  const text = (table: TruthTable) => renderTextTable(table.headers, table.rows, layout);
  const warning = unparsedWarning(summary.unparsed);
  const flag = warning ? ` (not counted: ${warning})` : '';
  const { count, of, share } = summary.unparsed;
  const lines = [
    `Accuracy per condition${flag} (each question read twice, once with each answer first; the interval counts questions):`,
    text(accuracyTable(summary)),
    `Readings whose answer could not be read: ${count} of ${of} (${Math.round(share * 100)}%; a run over ${Math.round(UNPARSED_LIMIT * 100)}% is not counted).`,
  ];
  if (summary.differences.length > 0) {
    lines.push(
      `Paired differences (same questions; the first minus the second, 95% interval${summary.differences.some((row) => row.clustered && row.clustered.clusters < row.clustered.n) ? ' from a bootstrap over passages' : ''})${flag}:`,
      text(differencesTable(summary.differences)),
    );
  }
  for (const group of summary.groups ?? []) {
    const label = group.group === 'passage' ? 'passage questions' : 'control questions';
    lines.push(
      `On the ${plural(group.questions, label.replace(' questions', ' question'))}${flag}:`,
      text(accuracyTable(group)),
    );
    if (group.differences.length > 0) lines.push(text(differencesTable(group.differences)));
  }
  const finding = summary.groups ? groupFinding(summary.groups) : null;
  if (finding) lines.push(finding);
  if (transcript.quoteTallies.length > 0) {
    lines.push('Quotes of the passage per debater model:', text(quotesTable(transcript.quoteTallies)));
    const { followed, of } = transcript.quotesFollowed;
    lines.push(
      of > 0
        ? `In ${plural(of, 'reading')} of debates where one side made more verified quotes, the judge chose that side's answer in ${followed}.`
        : 'No debate had one side with more verified quotes than the other.',
    );
  }
  if (summary.persuasiveness.length > 0) {
    lines.push(
      'Persuasiveness (readings won while arguing the wrong answer):',
      text(persuasivenessTable(summary)),
    );
  }
  return lines;
}

export function truthReport(state: TruthState, layout: TextLayout): string {
  const transcript = truthTranscript(state);
  const outcome = truthOutcome({ ...transcript, failedSteps: sequenceFailures(state).length });
  const conditions = state.scenario.conditions;
  const table = renderTextTable(
    ['Question', 'Right answer', ...conditions],
    questionRows(transcript.questions, conditions),
    layout,
  );
  return [outcome, table, ...summaryLines(transcript, layout)].join('\n');
}

export function truthMarkdown(state: TruthState): string {
  const transcript = truthTranscript(state);
  const { scenario } = state;
  const outcome = truthOutcome({ ...transcript, failedSteps: sequenceFailures(state).length });
  const lines = [
    `# ${transcript.title ?? transcript.topic}`,
    '',
    `**Result:** ${outcome}`,
    '',
    `- Judge: **${transcript.judge.name}** (\`${transcript.judge.model}\`)`,
    `- Debater A: **${transcript.debaters.a.name}** (\`${transcript.debaters.a.model}\`)`,
    `- Debater B: **${transcript.debaters.b.name}** (\`${transcript.debaters.b.model}\`)`,
    `- Conditions: ${scenario.conditions.join(', ')}; ${plural(scenario.max_rounds, 'round')} of debate, ${plural(scenario.max_rounds, 'statement')} of a consultant; the judge reads each condition ${readingsOf(state) === 2 ? 'twice, once with each answer first' : 'once'}`,
    `- Run: \`${transcript.runId}\`, seed ${transcript.seed}; status ${transcript.status}`,
    '',
    '## Results',
    '',
    '```',
    truthReport(state, { width: Number.POSITIVE_INFINITY, borders: false }).split('\n').slice(1).join('\n'),
    '```',
  ];
  for (const question of recordedQuestions(state)) {
    lines.push(
      '',
      `## Question ${question.number}${question.kind ? ` (${question.kind})` : ''}`,
      '',
      question.question,
      '',
      `- Answer 1: ${question.options[0]}${question.rightOption === 1 ? ' (right)' : ''}`,
      `- Answer 2: ${question.options[1]}${question.rightOption === 2 ? ' (right)' : ''}`,
      ...(question.passage ? ['', `> Passage (seen by the debaters only): ${question.passage}`] : []),
    );
    for (const record of conditionRecords(state, question.number)) {
      lines.push('', `### ${record.condition}`, '');
      for (const statement of record.statements) {
        const note = fallbackNote(statement);
        const who =
          statement.phase === JUDGE_QUESTION
            ? `${statement.speaker} (judge, asking)`
            : `${statement.speaker} (${record.condition === 'debate' ? `Debater ${statement.side.toUpperCase()}` : 'consultant'})`;
        lines.push(`**${who}:**${note ? ` _${note}_` : ''} ${statement.text.trim()}`, '');
      }
      for (const { reading, verdict } of record.readings) {
        const { options, rightOption } = readingOrder(question, reading);
        const judge = record.readings.length > 1 ? `**Judge, ${options[0]} offered first:**` : '**Judge:**';
        if (!verdict) lines.push(`${judge} _not judged yet._`);
        else if (!verdict.result) lines.push(`${judge} no verdict (${verdict.reason ?? 'no usable answer'})`);
        else {
          const picked = Number(verdict.result.answer);
          const right = picked === rightOption;
          lines.push(
            `${judge} ${String(verdict.result.reasoning ?? '').trim()} Believes Answer ${picked} (${options[picked - 1]}), confidence ${verdict.result.confidence}%: ${right ? 'right' : 'wrong'}.`,
          );
        }
        lines.push('');
      }
    }
  }
  lines.push('');
  return lines.join('\n');
}
