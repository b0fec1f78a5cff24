/**
 * Cassettes: recorded chat exchanges, one JSON file per call (`0001.json`, `0002.json`, ...) in a
 * folder. A call holds the API, the request body as sent, the HTTP status and the answer's raw
 * text in the pieces it arrived in, each with its time since the request; the simulator serves
 * them back (`--cassette`). Headers are never part of a cassette.
 */
import { closeSync, constants, fstatSync, openSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** The cassette format's version, written in every call. */
export const CASSETTE_VERSION = 1;

/**
 * The largest call file served: a recorded answer of many thousand tokens, streamed piece by piece,
 * takes well under a megabyte.
 */
export const MAX_CALL_FILE_BYTES = 32 * 1024 * 1024;

/** A call's file name: its number, four digits or more. */
export const CALL_FILE = /^(\d{4,})\.json$/;

const chunkSchema = z.strictObject({ ms: z.number().nonnegative(), text: z.string() });

const callSchema = z.strictObject({
  cassette: z.literal(CASSETTE_VERSION),
  call: z.number().int().positive(),
  api: z.enum(['ollama', 'openai']),
  request: z.record(z.string(), z.unknown()),
  /** Missing when the server was never reached. */
  status: z.number().int().optional(),
  chunks: z.array(chunkSchema),
  usage: z
    .strictObject({ promptTokens: z.number().optional(), outputTokens: z.number().optional() })
    .optional(),
  /** Why the call did not end cleanly (a dropped connection, an abort); absent when it did. */
  failure: z.string().optional(),
  ms: z.number().nonnegative(),
});

/** One recorded chat call. */
export type CassetteCall = z.infer<typeof callSchema>;

/** A cassette folder that cannot be served. */
export class CassetteError extends Error {
  override name = 'CassetteError';
}

/** A call as its file's text: the request indented, one line per streamed piece, for readable diffs. */
export function callFileText(call: CassetteCall): string {
  const marker = '"__chunks__"';
  const chunks =
    call.chunks.length === 0
      ? '[]'
      : `[\n    ${call.chunks.map((chunk) => JSON.stringify(chunk)).join(',\n    ')}\n  ]`;
  const text = JSON.stringify({ ...call, chunks: '__chunks__' }, null, 2);
  return `${text.replace(marker, () => chunks)}\n`;
}

/** Every call of the cassette in `dir`, in call order. */
export function loadCassette(dir: string): CassetteCall[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    throw new CassetteError(`cannot read the cassette folder ${dir}: ${(error as Error).message}`);
  }
  const calls = names
    .filter((name) => CALL_FILE.test(name))
    .sort()
    .map((name) => {
      const file = path.join(dir, name);
      const text = readCallFile(file);
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch (error) {
        throw new CassetteError(`${file} is not a cassette call: ${(error as Error).message}`);
      }
      const parsed = callSchema.safeParse(data);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue?.path.join('.') || '(the file)';
        throw new CassetteError(`${file} is not a cassette call: ${field}: ${issue?.message}`);
      }
      return parsed.data;
    })
    .sort((a, b) => a.call - b.call);
  if (calls.length === 0) {
    throw new CassetteError(
      `${dir} holds no cassette calls (0001.json, ...); record one with \`agora run ... --record ${dir}\``,
    );
  }
  return calls;
}

/** What a file that is not a regular file is, in words. */
function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * A call file's text. Only a regular file of a sane size is read: a named pipe would block, and a
 * device such as /dev/zero never ends. The file is opened without blocking and checked through
 * its descriptor, so what is read is what was checked, even behind a symbolic link.
 */
function readCallFile(file: string): string {
  let descriptor: number;
  try {
    descriptor = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new CassetteError(`${file} cannot be read: ${(error as Error).message}`);
  }
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) {
      throw new CassetteError(
        `${file} is ${kindOf(stats)}, not a cassette call; a call is a JSON file written by --record: record the cassette again or remove it`,
      );
    }
    if (stats.size > MAX_CALL_FILE_BYTES) {
      throw new CassetteError(
        `${file} is ${stats.size} bytes, above the ${MAX_CALL_FILE_BYTES}-byte limit for one cassette call; record the cassette again with shorter answers`,
      );
    }
    return readFileSync(descriptor, 'utf8');
  } catch (error) {
    if (error instanceof CassetteError) throw error;
    throw new CassetteError(`${file} cannot be read: ${(error as Error).message}`);
  } finally {
    closeSync(descriptor);
  }
}

/** Token counts from a recorded answer's text (Ollama's last line, or the OpenAI usage chunk). */
export function usageOf(api: 'ollama' | 'openai', text: string): CassetteCall['usage'] {
  for (const raw of text.split('\n').reverse()) {
    const line = api === 'openai' ? raw.replace(/^data:\s?/, '') : raw;
    if (!line.trim().startsWith('{')) continue;
    try {
      const part = JSON.parse(line) as {
        done?: boolean;
        prompt_eval_count?: number;
        eval_count?: number;
        usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
      };
      if (api === 'ollama' && part.done === true) {
        return { promptTokens: part.prompt_eval_count, outputTokens: part.eval_count };
      }
      if (api === 'openai' && part.usage) {
        return { promptTokens: part.usage.prompt_tokens, outputTokens: part.usage.completion_tokens };
      }
    } catch {
      // Not a whole JSON line: the usage is elsewhere, or absent.
    }
  }
  return undefined;
}
