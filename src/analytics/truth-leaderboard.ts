/**
 * The truth table of the leaderboard: over every indexed truth run, each judge model's accuracy
 * per condition with its 95% Wilson interval, and its difference from the same judge alone
 * (`direct`) on the same questions, paired question by question (Newcombe's interval); questions
 * about a passage the judge cannot see apart from the control questions it can work out alone. A run
 * whose verdicts could too often not be read is left out, and the note says how many were. As in
 * `show`, each reading of a question (its answers in one order, then the other) is a verdict, and
 * the intervals count questions: a question's readings are averaged, and pair as halves of it.
 * Order flips count the questions whose two readings chose different answers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RunIndex } from '../store/run-index.js';
import type { LeaderTable } from './leader-table.js';
import type { LeaderboardOptions } from './leaderboard.js';
import { accuracyInterval, type PairedDifference, pairedDifference } from './truth-accuracy.js';

interface TruthRecord {
  judge?: { model?: string };
  questions?: Array<{
    id?: string;
    kind?: string | null;
    passageId?: string | null;
    verdicts?: Array<{ condition?: string; reading?: number; correct?: boolean | null }>;
  }>;
  summary?: { unparsed?: { overLimit?: boolean } };
}

/** Which set a question belongs to: about a passage, or the control set. */
const groupOf = (question: { kind?: string | null; passageId?: string | null }) =>
  question.kind === 'passage' || (question.passageId ?? null) !== null ? 'passage' : 'control';

const CONDITION_ORDER = ['direct', 'expert', 'consultancy', 'debate'];

/** The transcript.json of a run folder, or null when it cannot be read (a run being written, say). */
function readRecord(outDir: string, runDir: string): TruthRecord | null {
  try {
    return JSON.parse(readFileSync(path.join(path.resolve(outDir, runDir), 'transcript.json'), 'utf8'));
  } catch {
    return null;
  }
}

const points = (value: number) => {
  const rounded = Math.round(value * 100);
  return rounded > 0 ? `+${rounded}` : rounded < 0 ? `−${-rounded}` : '0';
};

function differenceCell(difference: PairedDifference | null): string | null {
  if (!difference) return null;
  return `${points(difference.difference)} (${points(difference.low)} to ${points(difference.high)})`;
}

export function truthTable(index: RunIndex, outDir: string, options: LeaderboardOptions = {}): LeaderTable {
  const filters = [
    "format = 'truth'",
    ...(options.batchId ? ['batch_id = ?'] : []),
    ...(options.includeDemo ? [] : ['COALESCE(simulated, 0) = 0']),
  ];
  const runs = index.query(
    `SELECT run_id, run_dir FROM runs WHERE ${filters.join(' AND ')} ORDER BY run_id`,
    options.batchId ? [options.batchId] : [],
  ).rows;
  // Per judge model and condition: each reading's correctness by its number, keyed by run and question for pairing.
  const verdicts = new Map<string, Map<string, Map<string, Map<number, boolean>>>>();
  const runsPerJudge = new Map<string, Set<string>>();
  let leftOut = 0;
  for (const [runId, runDir] of runs) {
    const record = readRecord(outDir, String(runDir ?? ''));
    const model = record?.judge?.model;
    if (!record || !model) continue;
    if (record.summary?.unparsed?.overLimit) {
      leftOut += 1;
      continue;
    }
    for (const [at, question] of (record.questions ?? []).entries()) {
      // Keyed by judge model and question set; split again for the rows.
      const judge = `${model}\u0000${groupOf(question)}`;
      for (const verdict of question.verdicts ?? []) {
        if (typeof verdict.correct !== 'boolean' || !verdict.condition) continue;
        const byCondition = verdicts.get(judge) ?? new Map<string, Map<string, Map<number, boolean>>>();
        const byQuestion = byCondition.get(verdict.condition) ?? new Map<string, Map<number, boolean>>();
        const key = `${runId}\u0000${question.id ?? at}`;
        // A run recorded before both orders were read has one reading, unnumbered.
        const readings = byQuestion.get(key) ?? new Map<number, boolean>();
        readings.set(verdict.reading ?? 1, verdict.correct);
        byQuestion.set(key, readings);
        byCondition.set(verdict.condition, byQuestion);
        verdicts.set(judge, byCondition);
        const judgeRuns = runsPerJudge.get(judge) ?? new Set<string>();
        judgeRuns.add(String(runId));
        runsPerJudge.set(judge, judgeRuns);
      }
    }
  }
  const rows = [...verdicts.keys()].sort().flatMap((key) => {
    const [judge, group] = key.split('\u0000') as [string, string];
    const byCondition = verdicts.get(key) as Map<string, Map<string, Map<number, boolean>>>;
    const direct = byCondition.get('direct');
    return [...byCondition.keys()]
      .sort((x, y) => CONDITION_ORDER.indexOf(x) - CONDITION_ORDER.indexOf(y))
      .map((condition) => {
        const judged = byCondition.get(condition) as Map<string, Map<number, boolean>>;
        let [readings, right, average, flips, readTwice] = [0, 0, 0, 0, 0];
        for (const read of judged.values()) {
          const mine = [...read.values()];
          readings += mine.length;
          right += mine.filter(Boolean).length;
          average += mine.filter(Boolean).length / mine.length;
          // Both readings judged: with the answers swapped, one right and one wrong is a flip.
          if (mine.length === 2) {
            readTwice += 1;
            if (mine[0] !== mine[1]) flips += 1;
          }
        }
        const accuracy = accuracyInterval(average, judged.size);
        const pairs: Array<[boolean, boolean, number]> = [];
        if (direct && condition !== 'direct') {
          for (const [question, read] of judged) {
            const both = [...read].flatMap(([reading, correct]) => {
              const alone = direct.get(question)?.get(reading);
              return alone === undefined ? [] : [[correct, alone] as const];
            });
            for (const [correct, alone] of both) pairs.push([correct, alone, 1 / both.length]);
          }
        }
        return [
          judge,
          group,
          condition,
          runsPerJudge.get(key)?.size ?? 0,
          readings,
          right,
          accuracy ? Math.round(accuracy.rate * 100) : null,
          accuracy ? `${Math.round(accuracy.low * 100)}–${Math.round(accuracy.high * 100)}` : null,
          condition === 'direct' ? null : differenceCell(pairedDifference(pairs)),
          readTwice === 0 ? null : `${flips} of ${readTwice}`,
        ];
      });
  });
  return {
    title: 'Judges against the truth (truth runs): accuracy per judge model and condition',
    columns: [
      'Judge model',
      'Questions',
      'Condition',
      'Runs',
      'Judged',
      'Right',
      'Accuracy %',
      '95% interval',
      'vs direct (points)',
      'Order flips',
    ],
    rows,
    note:
      rows.length === 0
        ? 'No truth runs yet: `agora run --format truth --questions 20` makes one (simulator runs count only with --include-demo).'
        : `Questions: "passage" for questions about a passage the judge cannot see, "control" for those it can work out alone. Judged and Right count readings (each question is read twice, once with each answer first); intervals count questions. Order flips: of the questions read both ways, those whose two readings chose different answers (the judge followed the order, not the content). Intervals are 95%: Wilson for accuracy, Newcombe for the difference from the same judge alone on the same questions (not clustered by passage here; \`show\` gives a run's clustered differences). With a few dozen questions they are wide; see docs/truth.md.${leftOut > 0 ? ` Left out: ${leftOut} run${leftOut === 1 ? '' : 's'} with more than 20% of verdicts unread.` : ''}`,
  };
}
