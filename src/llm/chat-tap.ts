/**
 * A window on chat exchanges as they cross the wire, for recording cassettes. The stream readers
 * call it with the body as sent and the answer's raw text as it arrives, so a recording holds what
 * the server really said (NDJSON or server-sent events, error bodies included). It never sees
 * headers, so an API key cannot reach a recording through it.
 */

/** The wire format of a chat exchange. */
export type ChatApi = 'ollama' | 'openai';

/** One exchange being watched, from the request to the end of the answer. */
export interface TappedCall {
  /** The HTTP status, once the headers are in. */
  status(code: number): void;
  /** A piece of the answer's body, as received (bytes, which may split a character). */
  chunk(data: string | Uint8Array): void;
  /** The call is over: `failure` says why when it did not end cleanly (a dropped connection, an abort). */
  end(failure?: string): void;
}

/** Told of every chat call an adapter makes. */
export interface ChatTap {
  /** A request is about to be sent; `body` is the JSON text as sent. */
  begin(api: ChatApi, body: string): TappedCall;
}
