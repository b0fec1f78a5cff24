/**
 * The person at the podium, writing in the viewer: each turn is written to the run's folder for
 * the run page to show, and the statement the page sends back for that turn is taken from there.
 * The folder is watched, and looked at once a second as well, since a watch can miss an event on
 * some file systems.
 */
import { randomUUID } from 'node:crypto';
import { watch } from 'node:fs';
import type { PersonInput } from '../llm/podium-provider.js';
import { personTask } from '../render/person-task.js';
import { clearPodium, takePodiumAnswer, writePodiumTurn } from '../store/podium-files.js';
import { type PersonPace, turnLimitWords } from './person-pace.js';

export function viewerPerson(runDir: string, pace: PersonPace = {}): PersonInput {
  return {
    async statement(turn) {
      const task = personTask(turn.messages);
      const id = randomUUID();
      writePodiumTurn(runDir, {
        id,
        askedAt: new Date().toISOString(),
        speaker: task.name ?? 'the person',
        task,
        limitWords: turnLimitWords(turn.maxTokens, pace, task.wordLimit),
        ...(pace.secondsPerWord === undefined ? {} : { secondsPerWord: pace.secondsPerWord }),
      });
      const text = await new Promise<string | undefined>((resolve) => {
        const finish = (value: string | undefined) => {
          watcher.close();
          clearInterval(timer);
          turn.signal?.removeEventListener('abort', aborted);
          resolve(value);
        };
        const look = () => {
          const answer = takePodiumAnswer(runDir, id);
          if (answer !== undefined) finish(answer);
        };
        const aborted = () => {
          clearPodium(runDir);
          finish(undefined);
        };
        const watcher = watch(runDir, look);
        const timer = setInterval(look, 1000);
        turn.signal?.addEventListener('abort', aborted, { once: true });
        look();
      });
      return text === undefined ? undefined : { text };
    },
  };
}
