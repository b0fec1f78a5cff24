/**
 * The note a transcript carries when a fallback model spoke for the model a participant was given,
 * the same words in every format, so nobody reads a fallback's text as the named model's.
 */

/** "spoken by fallback model `qwen2.5` instead of `mistral`", or '' when the named model spoke. */
export function fallbackNote(
  spoken: { model: string; fallbackFrom?: string | undefined },
  verb: 'spoken' | 'answered' = 'spoken',
): string {
  return spoken.fallbackFrom
    ? `${verb} by fallback model \`${spoken.model}\` instead of \`${spoken.fallbackFrom}\``
    : '';
}

/** A speaker's name with its model as it actually spoke: "Blaise (`mistral`)", or with the fallback named. */
export function speakerWithModel(
  name: string,
  spoken: { model: string; fallbackFrom?: string | undefined },
): string {
  return spoken.fallbackFrom
    ? `${name} (fallback model \`${spoken.model}\` instead of \`${spoken.fallbackFrom}\`)`
    : `${name} (\`${spoken.model}\`)`;
}
