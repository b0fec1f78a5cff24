/**
 * Why a run ended, in words a reader needs no glossary for. The log keeps its short labels
 * (`max_rounds`, `manual-stop`); what people read says what they mean.
 */

const PLAIN: Record<string, string> = {
  max_rounds: 'it reached its last round',
  finished: 'it reached its end',
  judge_early_stop: 'the judges heard no new arguments two rounds running',
  confidence_threshold: "the judge's confidence reached the scenario's threshold",
  max_runtime_seconds: 'its time budget (stop.max_runtime_seconds) ran out',
  max_total_output_tokens: 'its output budget (stop.max_total_output_tokens) ran out',
  'manual-stop': 'it was asked to stop (Ctrl-C or `agora stop`)',
  aborted: 'the step in flight was aborted',
  error: 'a step failed',
  'awaiting-person': 'it is waiting for the person at the podium to speak (continue with `agora resume`)',
};

/** A stop reason as a clause ("it reached its last round"); a reason already in words is kept. */
export function stopReasonText(reason: string | null | undefined): string {
  if (reason === null || reason === undefined || reason === '') return '';
  return Object.hasOwn(PLAIN, reason) ? (PLAIN[reason] as string) : reason;
}

/** Whether a run that reached its end stopped before its planned last round or state. */
export function endedEarly(reason: string | null | undefined): boolean {
  return reason !== null && reason !== undefined && !['max_rounds', 'finished'].includes(reason);
}
