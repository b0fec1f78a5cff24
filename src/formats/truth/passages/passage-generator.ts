/**
 * Generated passages for the truth format's `passage` questions: a seeded choice of document (a
 * quarterly report, meeting minutes, a travel log, a story), its text, and up to five questions whose
 * answers were computed from the facts the generator wrote into it. The judge never sees the text
 * (except under `expert`); the debaters do.
 */
import type { Draw } from '../seeded-draw.js';
import { draw } from '../seeded-draw.js';
import { familyStory } from './family-story.js';
import { meetingMinutes } from './meeting-minutes.js';
import type { GeneratedPassage } from './passage.js';
import { quarterlyReport } from './quarterly-report.js';
import { travelLog } from './travel-log.js';

export const DOCUMENTS: ReadonlyArray<(d: Draw) => GeneratedPassage> = [
  quarterlyReport,
  meetingMinutes,
  travelLog,
  familyStory,
];

/** Questions asked of one passage; the published sets ask at most five. */
export const QUESTIONS_PER_PASSAGE = 4;

/** The passage numbered `number` (from 1) of a run with this seed. */
export function generatePassage(seed: number, number: number): GeneratedPassage {
  const documentAt = draw(`${seed}:truth-documents`).int(0, DOCUMENTS.length - 1);
  const make = DOCUMENTS[(documentAt + number - 1) % DOCUMENTS.length] as (d: Draw) => GeneratedPassage;
  return make(draw(`${seed}:truth-passage-${number}`));
}
