/** A problem or a warning a scenario check found: where in the file, and what to do about it. */
export interface RuleFinding {
  path: Array<string | number>;
  message: string;
}
