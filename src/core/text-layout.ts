/** Where text for the terminal is shown: how many columns it may use, and whether to draw borders. */
export interface TextLayout {
  width: number;
  /** Box-drawing borders (a terminal) or plain aligned columns (pipes, files). */
  borders: boolean;
}

/** The layout of callers that know nothing of a screen: a bordered table as wide as it needs. */
export const WIDE_LAYOUT: TextLayout = { width: Number.POSITIVE_INFINITY, borders: true };
