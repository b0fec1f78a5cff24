/** The scenario's background, as the text every prompt carries. */
import type { ContextFile } from './scenario.js';

/** Background knowledge and context files, as every participant receives them. */
export function backgroundText(
  background: { knowledge: Record<string, string | string[]> },
  files: ContextFile[],
): string {
  const lines = Object.entries(background.knowledge).map(([key, value]) => {
    const title = key.replace(/_/g, ' ');
    return Array.isArray(value) ? `- ${title}: ${value.join('; ')}` : `- ${title}: ${value}`;
  });
  const fileTexts = files.map((file) => `\n### ${file.path}\n${file.content.trim()}`);
  if (lines.length === 0 && fileTexts.length === 0) return '';
  return `\n## Background (shared by every participant)\n${lines.join('\n')}${fileTexts.join('\n')}\n`;
}
