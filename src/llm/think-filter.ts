/**
 * Separates a model's thinking from its answer as the stream arrives. Thinking models (qwen3,
 * deepseek-r1) either send their thinking in Ollama's separate `thinking` field or, when they
 * ignore `think: false` or run on an older server, inline in the content between `<think>` and
 * `</think>`. Thinking never reaches the transcript, a live view or another agent's prompt; it is
 * counted on its own so it does not use speaking time.
 */
const OPEN = '<think>';
const CLOSE = '</think>';

export class ThinkFilter {
  private inside = false;
  /** Text held back because it may be the start of a tag split across pieces. */
  private pending = '';
  /** The answer so far, without thinking. */
  answer = '';
  /** The thinking so far. */
  thinking = '';
  /** Pieces of the stream that were thinking (each streamed piece is about one token). */
  thinkingPieces = 0;

  /** Takes one streamed piece of content; returns the part of it that is answer text. */
  feed(piece: string): string {
    let text = this.pending + piece;
    this.pending = '';
    let visible = '';
    let sawThinking = false;
    while (text !== '') {
      const tag = this.inside ? CLOSE : OPEN;
      const at = text.indexOf(tag);
      if (at === -1) {
        // Keep back a tail that could be the beginning of the tag.
        const keep = partialTagTail(text, tag);
        const body = text.slice(0, text.length - keep);
        this.pending = text.slice(text.length - keep);
        if (this.inside) {
          this.thinking += body;
          if (body !== '') sawThinking = true;
        } else visible += body;
        break;
      }
      const before = text.slice(0, at);
      if (this.inside) {
        this.thinking += before;
        sawThinking = true;
      } else visible += before;
      this.inside = !this.inside;
      if (this.inside) sawThinking = true;
      text = text.slice(at + tag.length);
    }
    if (sawThinking) this.thinkingPieces += 1;
    // Leading blank lines after a closed thinking block are not part of the answer.
    if (this.answer === '') visible = visible.replace(/^\s+/, '');
    this.answer += visible;
    return visible;
  }

  /** Thinking that arrived in Ollama's own `thinking` field. */
  feedThinking(piece: string): void {
    if (piece === '') return;
    this.thinking += piece;
    this.thinkingPieces += 1;
  }

  /** The stream ended: a held-back tail that never became a tag is answer text (or thinking). */
  end(): string {
    const rest = this.pending;
    this.pending = '';
    if (this.inside) {
      this.thinking += rest;
      return '';
    }
    const visible = this.answer === '' ? rest.replace(/^\s+/, '') : rest;
    this.answer += visible;
    return visible;
  }
}

function partialTagTail(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length -= 1) {
    if (tag.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}
