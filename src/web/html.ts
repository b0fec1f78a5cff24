/**
 * HTML built from tagged templates that escape every interpolated value. Whatever a model wrote is
 * text, never markup: only fragments made by `html` itself (or marked with `trusted`) go in unescaped.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

/** A piece of markup that is already safe: the result of `html`, or constant markup. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** `html\`<p>${text}</p>\`` escapes `text`; nested `html` results and arrays of them are kept as markup. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, at) => {
    out += render(value) + (strings[at + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Marks constant markup as safe. Never pass it anything a model or a user wrote. */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
