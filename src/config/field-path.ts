/** Formats a data path as people write it: `agents[2].model`. */
export function formatFieldPath(path: ReadonlyArray<PropertyKey>): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text === '' ? String(part) : `.${String(part)}`;
  }
  return text;
}
