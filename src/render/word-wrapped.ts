/** A stream that wraps what is written through it at word boundaries before passing it on. */
import { Writable } from 'node:stream';
import { createStreamWrapper } from './wrap-text.js';

/** The wrapping stream; `flush()` passes on a word still held back, before others write to `target`. */
export type WordWrappedStream = Writable & { flush(): void };

export function wordWrapped(target: Writable, width: number): WordWrappedStream {
  const wrapper = createStreamWrapper(Math.max(10, width));
  const stream = new Writable({
    decodeStrings: false,
    // Written through at once (the callback is synchronous), so the order with direct writes holds.
    write(chunk: string | Buffer, _encoding, callback) {
      const text = wrapper.push(String(chunk));
      if (text !== '') target.write(text);
      callback();
    },
  });
  return Object.assign(stream, {
    flush() {
      const text = wrapper.flush();
      if (text !== '') target.write(text);
    },
  });
}
