/**
 * Whether to colour a stream, by the usual conventions: NO_COLOR (https://no-color.org) with any
 * non-empty value turns colour off and wins over everything; FORCE_COLOR=0 (or false) turns it
 * off, any other FORCE_COLOR turns it on even when the output is not a terminal; otherwise a
 * terminal gets colour and a pipe or a file does not.
 */
export function colorWanted(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return Boolean(stream.isTTY);
}
