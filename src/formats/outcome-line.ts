/** How a run came out, in one line for lists of runs: read from its transcript, for every format. */

const LONGEST = 160;

const clip = (text: string) => (text.length > LONGEST ? `${text.slice(0, LONGEST - 1)}…` : text);
const firstLine = (text: unknown) => String(text ?? '').split('\n')[0] ?? '';

/** Null while nothing has been decided (a run just started, a verdict that abstained). */
export function outcomeLine(format: string, transcript: unknown): string | null {
  const record = (transcript ?? {}) as Record<string, unknown>;
  switch (format) {
    case 'knockout': {
      const result = record.result as { headline?: string; faced?: unknown[] } | undefined;
      return result?.headline && (result.faced?.length ?? 0) > 0 ? clip(result.headline) : null;
    }
    case 'formal': {
      const verdict = record.verdict as { abstained?: boolean; winner?: string } | null | undefined;
      return verdict && !verdict.abstained && verdict.winner ? clip(`Verdict: ${verdict.winner} wins`) : null;
    }
    case 'duel': {
      const won = (record.stats as { roundsWon?: { a: number; b: number; even: number } } | undefined)
        ?.roundsWon;
      const debaters = record.debaters as { a?: { name: string }; b?: { name: string } } | undefined;
      if (!won || won.a + won.b + won.even === 0) return null;
      return clip(
        `Rounds won: ${debaters?.a?.name ?? 'A'} ${won.a}, ${debaters?.b?.name ?? 'B'} ${won.b}, even ${won.even}`,
      );
    }
    case 'council': {
      const packet = record.finalPacket as { decision?: { selected_option?: string } } | null | undefined;
      return packet?.decision?.selected_option
        ? clip(`Decision: ${firstLine(packet.decision.selected_option)}`)
        : null;
    }
    case 'critique': {
      const solution = record.solution as { confidence?: number; description?: unknown } | null | undefined;
      return solution
        ? clip(`Solution (confidence ${solution.confidence ?? '?'}/100): ${firstLine(solution.description)}`)
        : null;
    }
    default:
      return null;
  }
}
