/**
 * The argument map as Markdown, for `agora show`: each claim on a line under its round or phase,
 * with what it answers, what answered it and its status, then the debaters' argument scores.
 */
import type { ArgumentMap } from '../analytics/argument-map-shape.js';
import { mapSourceText, mapSummaryText, STATUS_MEANINGS } from '../analytics/argument-map-words.js';

const cell = (text: string | number) => String(text).replace(/\|/g, '\\|').replace(/\s+/g, ' ');

export function argumentMapText(map: ArgumentMap | null): string {
  if (!map) return '';
  const lines = ['', '## Argument map', ''];
  if (map.claims.length === 0) return `${[...lines, 'No claims yet.'].join('\n')}\n`;
  lines.push(
    mapSummaryText(map),
    '',
    ...Object.entries(STATUS_MEANINGS).map(([status, meaning]) => `- **${status}**: ${meaning}`),
    '',
    mapSourceText(map),
  );
  const sideOf = (key: string) => map.sides.find((side) => side.key === key)?.label ?? key;
  for (const row of map.rows) {
    const claims = map.claims.filter((claim) => claim.row === row.key);
    if (claims.length === 0) continue;
    lines.push('', `### ${row.title}`, '');
    for (const claim of claims) {
      const links = [
        claim.answers ? `answers ${claim.answers}` : '',
        claim.supports ? `supports ${claim.supports}` : '',
        claim.answeredBy.length > 0 ? `answered by ${claim.answeredBy.join(', ')}` : '',
        claim.restatedIn.length > 0 ? `restated in ${claim.restatedIn.join(', ')}` : '',
      ].filter((part) => part !== '');
      lines.push(
        `- **${claim.id}** ${claim.speaker}, ${sideOf(claim.side)}${claim.restated ? ', restated' : ''}: "${claim.text.replace(/\s+/g, ' ')}"${claim.evidence ? ` (evidence: ${claim.evidence})` : ''}${links.length > 0 ? ` · ${links.join('; ')}` : ''} · **${claim.status}**`,
      );
    }
  }
  lines.push(
    '',
    '### Argument scores',
    '',
    '| Debater | Side | Claims | Answered by the other side | Answers given | Left open | Dropped |',
    '|---|---|---|---|---|---|---|',
    ...map.scores.map(
      (score) =>
        `| ${cell(score.speaker)} | ${cell(sideOf(score.side))} | ${score.made} | ${score.answeredByOther} | ${score.answersGiven} | ${score.leftOpen} | ${score.dropped} |`,
    ),
    '',
    "Claims: new claims made (restated ones are not counted again). Answers given: the other side's claims it answered.",
  );
  return `${lines.join('\n')}\n`;
}
