/**
 * How a council came out, in one plain sentence: the option the Judge chose, how many roles ended
 * on the majority stance, and how many next actions the Final Packet lists; or that there is no
 * decision and why. A run that did not reach its end has no decision yet.
 */
import { plural } from '../../core/plural.js';
import { clipText } from '../../core/text-layout.js';
import { degradedNote, type RunEnding, unfinishedSentence } from '../shared/run-ending.js';

interface CouncilRecord extends RunEnding {
  state?: string;
  consensus?: { majority_stance?: string | null; roles_answered?: number; key_agreements?: unknown[] } | null;
  finalPacket?: { decision?: { selected_option?: string }; next_actions?: unknown[] } | null;
}

/** How much of the chosen option the sentence quotes. */
const OPTION_CHARS = 160;

/** The sentence from a council's transcript.json. */
export function councilOutcome(transcript: unknown): string {
  const record = (transcript ?? {}) as CouncilRecord;
  const where = record.state && record.state !== 'Done' ? `at the ${record.state} state` : 'before its end';
  const unfinished = unfinishedSentence(record, where, '', 'there is no decision');
  if (unfinished !== null) return unfinished;
  const degraded = degradedNote(record);
  const option = record.finalPacket?.decision?.selected_option?.trim();
  if (!option) return `No decision: the council ended without a Final Packet${degraded}.`;
  // A packet without a decision says so in its selected option (see council-artifacts.ts).
  if (/^No decision\b/.test(option)) {
    return `${option.replace(/[.\s]+$/, '')}; the rounds, the consensus and what failed are in the Final Packet${degraded}.`;
  }
  const answered = record.consensus?.roles_answered ?? 0;
  const agreed = record.consensus?.key_agreements?.length ?? 0;
  const stance = record.consensus?.majority_stance;
  const majority =
    answered > 0
      ? `; ${agreed} of the ${plural(answered, 'role')} that answered ended on the majority stance${stance ? ` (${stance})` : ''}`
      : '; no role answered';
  const actions = plural(record.finalPacket?.next_actions?.length ?? 0, 'next action');
  const chosen = clipText(option, OPTION_CHARS).replace(/\.$/, '');
  return `The Judge chose "${chosen}"${majority}, and the Final Packet lists ${actions}${degraded}.`;
}
