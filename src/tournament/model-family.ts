/**
 * A model's family, for the rule that a judge never comes from a debater's own family: the name's
 * last path segment, lower-cased, cut before the first `:`, `-` or digit that follows a name.
 * `llama3:8b` and `llama3.1` are both `llama`, `qwen2.5-7b` is `qwen`, `mistral` stays `mistral`,
 * `hf.co/org/phi3-mini` is `phi`. A name that starts with a digit or a separator is its own family.
 */
export function modelFamily(model: string): string {
  const base = (model.split('/').at(-1) ?? model).toLowerCase();
  const head = /^[^:\-\d]+/.exec(base)?.[0].replace(/[._]+$/, '');
  return head && head.length > 0 ? head : base;
}

/** Whether two models belong to one family. */
export function sameFamily(a: string, b: string): boolean {
  return modelFamily(a) === modelFamily(b);
}
