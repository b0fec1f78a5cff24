import { describe, expect, it } from 'vitest';
import { CallGate, GateParty, sharedStart } from '../../src/llm/call-gate.js';

/** A call held open until the test ends it; records when it started. */
function harness(gate: CallGate) {
  const started: string[] = [];
  const enders = new Map<string, () => void>();
  const finished: Array<Promise<void>> = [];
  const call = (name: string, model: string, prompt = name, party?: GateParty) => {
    finished.push(
      gate.run({ model, prompt, ...(party ? { party } : {}) }, async () => {
        started.push(name);
        await new Promise<void>((resolve) => enders.set(name, resolve));
      }),
    );
  };
  const end = async (name: string) => {
    // Calls start on a later tick than the gate lets them through.
    await new Promise((settle) => setImmediate(settle));
    const resolve = enders.get(name);
    if (resolve === undefined) throw new Error(`${name} has not started`);
    resolve();
    // Let the gate's bookkeeping run before the test looks again.
    await new Promise((settle) => setImmediate(settle));
  };
  return { started, call, end, all: () => Promise.all(finished) };
}

describe('the per-host call gate', () => {
  it('lets calls of the running model go before older calls of another model', async () => {
    const gate = new CallGate(2);
    const { started, call, end, all } = harness(gate);
    call('a1', 'llama3');
    call('b1', 'mistral'); // waits: llama3 is running
    call('a2', 'llama3');
    call('a3', 'llama3'); // waits: the gate is full
    await end('a1');
    expect(started).toEqual(['a1', 'a2', 'a3']);
    await end('a2');
    await end('a3');
    expect(started).toEqual(['a1', 'a2', 'a3', 'b1']);
    await end('b1');
    await all();
    expect(gate.peak).toBe(2);
  });

  it('prefers, among calls of one model, the one whose prompt the model was last given', async () => {
    const gate = new CallGate(1);
    const { started, call, end, all } = harness(gate);
    call('first', 'llama3', 'debate A: round 1');
    call('other', 'llama3', 'debate B: round 1');
    call('same', 'llama3', 'debate A: round 1, then its judges');
    await end('first');
    expect(started).toEqual(['first', 'same']);
    await end('same');
    await end('other');
    await all();
  });

  it('with room for two calls, remembers the last two prompts of a model, as two slots would', async () => {
    const gate = new CallGate(2);
    const { started, call, end, all } = harness(gate);
    call('a', 'llama3', 'debate A: round 1');
    call('b', 'llama3', 'debate B: round 1');
    call('new', 'llama3', 'debate C: round 1');
    call('a-again', 'llama3', 'debate A: round 1, then its judges');
    await end('b');
    // The slot that served A still holds its prompt, though B was started after it.
    expect(started).toEqual(['a', 'b', 'a-again']);
    await end('a');
    await end('a-again');
    await end('new');
    await all();
    expect(started.at(-1)).toBe('new');
  });

  it('never starves a call: one passed over maxBypass times goes next, whatever its model', async () => {
    const gate = new CallGate(1, 3);
    const { started, call, end, all } = harness(gate);
    call('a0', 'llama3');
    call('b', 'mistral');
    // llama3 calls keep coming; each one that goes first passes over b once.
    for (let i = 1; i <= 6; i++) call(`a${i}`, 'llama3');
    for (let i = 0; i <= 3; i++) await end(`a${i}`);
    expect(started.slice(0, 5)).toEqual(['a0', 'a1', 'a2', 'a3', 'b']);
    await end('b');
    for (let i = 4; i <= 6; i++) await end(`a${i}`);
    await all();
    expect(started).toHaveLength(8);
  });

  it('never holds more calls in flight than its limit', async () => {
    const gate = new CallGate(3);
    const { started, call, end, all } = harness(gate);
    for (let i = 0; i < 9; i++) call(`c${i}`, 'llama3');
    expect(gate.inFlight).toBe(9);
    await new Promise((settle) => setImmediate(settle));
    expect(started).toEqual(['c0', 'c1', 'c2']);
    for (let i = 0; i < 9; i++) await end(`c${i}`);
    await all();
    expect(started).toHaveLength(9);
    expect(gate.peak).toBe(3);
    expect(gate.inFlight).toBe(0);
  });

  it('waits, before switching models, for a debate between two calls of the model that ran', async () => {
    // A long hold, so that only the debates' own calls and their leaving end it here.
    const gate = new CallGate(2, 100, 60_000);
    const first = new GateParty();
    const second = new GateParty();
    gate.join(first);
    gate.join(second);
    const { started, call, end, all } = harness(gate);
    call('first: a1', 'llama3', 'first: a1', first);
    call('second: b1', 'mistral', 'second: b1', second); // waits: llama3 is running
    await end('first: a1');
    // The first debate is between two calls: mistral does not start yet.
    expect(started).toEqual(['first: a1']);
    call('first: a2', 'llama3', 'first: a2', first);
    await new Promise((settle) => setImmediate(settle));
    expect(started).toEqual(['first: a1', 'first: a2']);
    await end('first: a2');
    expect(started).toHaveLength(2);
    // Its next call is for the other model: the switch happens.
    call('first: b2', 'mistral', 'first: b2', first);
    await new Promise((settle) => setImmediate(settle));
    expect(started.slice(2).sort()).toEqual(['first: b2', 'second: b1']);
    await end('first: b2');
    await end('second: b1');
    gate.leave(first);
    gate.leave(second);
    await all();
  });

  it('stops waiting for a debate that leaves, or whose hold is over', async () => {
    const gate = new CallGate(1, 100, 60_000);
    const party = new GateParty();
    gate.join(party);
    const { started, call, end, all } = harness(gate);
    call('a', 'llama3', 'a', party);
    call('b', 'mistral');
    await end('a');
    expect(started).toEqual(['a']);
    gate.leave(party);
    await new Promise((settle) => setImmediate(settle));
    expect(started).toEqual(['a', 'b']);
    await end('b');
    await all();

    // Without a hold, the other model goes as soon as the debate's call ends.
    const open = new CallGate(1, 100, 0);
    const between = new GateParty();
    open.join(between);
    const quick = harness(open);
    quick.call('a', 'llama3', 'a', between);
    quick.call('b', 'mistral');
    await quick.end('a');
    expect(quick.started).toEqual(['a', 'b']);
    await quick.end('b');
    await quick.all();

    // A short hold ends by itself, though the debate never sends another call.
    const timed = new CallGate(1, 100, 20);
    const idle = new GateParty();
    timed.join(idle);
    let bStarted: () => void = () => undefined;
    const bStarts = new Promise<void>((resolve) => {
      bStarted = resolve;
    });
    const later = harness(timed);
    later.call('a', 'llama3', 'a', idle);
    const b = timed.run({ model: 'mistral', prompt: 'b' }, async () => bStarted());
    await later.end('a');
    await bStarts;
    await b;
    await later.all();
  });

  it("by default lets a model's calls pass a waiting call 12 times per call it takes at once", async () => {
    const gate = new CallGate(2);
    expect(gate.maxBypass).toBe(24);
    const { started, call, end, all } = harness(gate);
    call('a0', 'llama3', 'llama3 prompt');
    call('b', 'mistral');
    for (let i = 1; i <= 20; i++) call(`a${i}`, 'llama3', 'llama3 prompt');
    // Twenty llama3 calls pass the mistral call: it still waits for them all.
    for (let i = 0; i <= 20; i++) await end(`a${i}`);
    expect(started.at(-1)).toBe('b');
    await end('b');
    await all();
  });

  it('once its limit is lowered, starts no more calls until fewer than the new limit run, and never raises it', async () => {
    const gate = new CallGate(3);
    const { started, call, end, all } = harness(gate);
    for (let i = 0; i < 6; i++) call(`c${i}`, 'llama3');
    await new Promise((settle) => setImmediate(settle));
    expect(started).toEqual(['c0', 'c1', 'c2']);
    expect(gate.lowerLimit(1)).toBe(1);
    expect(gate.lowerLimit(4)).toBe(1);
    // Two of the three running calls end: the third still runs, so nothing starts.
    await end('c0');
    await end('c1');
    expect(started).toEqual(['c0', 'c1', 'c2']);
    await end('c2');
    expect(started).toEqual(['c0', 'c1', 'c2', 'c3']);
    for (let i = 3; i < 6; i++) await end(`c${i}`);
    await all();
    expect(started).toHaveLength(6);
    expect(gate.lowerLimit(0)).toBe(1);
  });

  it('measures shared beginnings in characters', () => {
    expect(sharedStart('debate A: round 1', 'debate A: round 2')).toBe(16);
    expect(sharedStart('', 'x')).toBe(0);
  });
});
