// Agora's viewer in the browser. Fragments of markup come from the server, which escapes everything
// a model wrote; text that streams in live (a statement being generated) is only ever set as text.
const token = document.querySelector('meta[name="agora-token"]')?.getAttribute('content') ?? '';

async function post(url, body) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-agora-token': token },
    body: JSON.stringify(body ?? {}),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error ?? `${response.status} ${response.statusText}`);
  return data;
}

function voterId() {
  let id = localStorage.getItem('agora-voter');
  if (!id) {
    id = crypto.randomUUID();
    localStorage.setItem('agora-voter', id);
  }
  return id;
}

function followRun(root) {
  const runId = root.dataset.runId;
  const transcript = document.getElementById('transcript');
  const generating = document.getElementById('generating');
  const activity = document.getElementById('activity');
  const boxes = new Map();
  const replace = (id, markup) => {
    const element = document.getElementById(id);
    if (element && typeof markup === 'string') element.innerHTML = markup;
  };

  const box = (agent) => {
    let element = boxes.get(agent);
    if (!element) {
      element = document.createElement('article');
      element.className = 'generating';
      element.dataset.agent = agent;
      const who = document.createElement('p');
      who.className = 'who';
      const text = document.createElement('div');
      text.className = 'text';
      element.append(who, text);
      generating.append(element);
      boxes.set(agent, element);
    }
    return element;
  };
  // The newest words of the statement being written, under the activity line near the top of the
  // page, so a reader there sees it arrive; the whole statement grows at the foot, in its place.
  const tail = document.getElementById('live-tail');
  let tailAgent = null;
  const showTail = (agent) => {
    if (!tail) return;
    const text = boxes.get(agent)?.querySelector('.text').textContent ?? '';
    const cut = text.length > 280 ? text.slice(text.length - 280) : text;
    const start = text.length > 280 ? `…${cut.slice(cut.indexOf(' ') + 1)}` : cut;
    tail.textContent = start.trim() === '' ? '' : `${agent}: ${start}`;
    tail.hidden = tail.textContent === '';
    tailAgent = agent;
  };
  const clearTail = (agent) => {
    if (!tail || (agent !== undefined && agent !== tailAgent)) return;
    tail.textContent = '';
    tail.hidden = true;
    tailAgent = null;
  };
  const clearBox = (agent) => {
    boxes.get(agent)?.remove();
    boxes.delete(agent);
    clearTail(agent);
  };
  const clearAll = () => {
    for (const agent of [...boxes.keys()]) clearBox(agent);
    clearTail();
  };

  // The stream of a finished run sends `end` and closes; the page then stops following it (an
  // EventSource would otherwise reconnect), and follows it again once it is resumed from here.
  let lastSeq = -1;
  let source = null;
  const follow = () => {
    const after = lastSeq >= 0 ? `?after=${lastSeq}` : '';
    source = new EventSource(`/api/runs/${encodeURIComponent(runId)}/stream${after}`);
    source.addEventListener('end', () => source.close());
    source.addEventListener('run-event', (message) => {
      lastSeq = Math.max(lastSeq, JSON.parse(message.data).seq);
    });
    source.addEventListener('run-event', (message) => {
      const data = JSON.parse(message.data);
      if (!document.getElementById(`e-${data.seq}`)) transcript.insertAdjacentHTML('beforeend', data.html);
      if (data.agent) clearBox(data.agent);
      if (data.type === 'round-end' || data.type === 'run-end' || data.type === 'run-resume') clearAll();
      if (data.type === 'run-end') activity.textContent = '';
    });
    source.addEventListener('view', (message) => {
      const data = JSON.parse(message.data);
      replace('run-header', data.header);
      replace('result', data.result);
      replace('scoreboard', data.scoreboard);
      replace('charts', data.charts);
      replace('controls', data.controls);
      replace('spectators', data.spectators);
      root.dataset.status = data.status;
      // "Topic accepted" greets a debate getting under way; once it has ended, only the notices stay.
      if (!['not started', 'starting', 'running'].includes(data.status)) {
        document.getElementById('topic-accepted')?.remove();
        const notices = document.getElementById('start-notices');
        if (notices && notices.children.length === 0) notices.remove();
      }
      if (!data.live) {
        clearAll();
        activity.textContent = '';
      }
    });
    source.addEventListener('map', (message) => {
      const data = JSON.parse(message.data);
      replace('argument-map', data.map);
      replace('argument-scores', data.argumentScores);
    });
    source.addEventListener('live', (message) => {
      const notice = JSON.parse(message.data);
      switch (notice.type) {
        case 'turn-start': {
          const element = box(notice.agent);
          // A person's seat is written, not generated.
          const person = notice.model === 'person';
          element.querySelector('.who').textContent = person
            ? `${notice.heading} · ${notice.agent} (${notice.label}) · the person at the podium is writing…`
            : `${notice.heading} · ${notice.agent} (${notice.label}) · ${notice.model} is generating…`;
          element.querySelector('.text').textContent = '';
          // The statement streams after the transcript, at the foot of a long page: the line near
          // the top says who is speaking, shows its newest words and leads there.
          const follow = document.createElement('a');
          follow.href = '#generating';
          follow.className = 'follow-live';
          follow.textContent = 'follow it live ↓';
          activity.replaceChildren(
            person
              ? `${notice.agent} (a person) is writing · `
              : `${notice.agent} is generating on ${notice.model} · `,
            follow,
          );
          break;
        }
        case 'turn-delta': {
          // A reader already at the foot of the page stays there as the text grows; one reading
          // further up is left where they are.
          const atFoot = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 80;
          box(notice.agent).querySelector('.text').append(document.createTextNode(notice.text));
          showTail(notice.agent);
          if (atFoot) window.scrollTo(0, document.documentElement.scrollHeight);
          break;
        }
        case 'parallel-start':
          activity.textContent = `${notice.heading}: generating ${notice.who.join(', ')}`;
          break;
        case 'judging-start':
          activity.textContent = `Judges scoring ${notice.subject}: ${notice.judges.join(', ')}`;
          break;
        case 'summary-start':
          activity.textContent = `Summarising rounds 1–${notice.throughRound} with ${notice.model}`;
          break;
        case 'judge-retry':
          activity.textContent = `${notice.judge}'s answer was unusable (${notice.reason}); asking again`;
          break;
        case 'moderation':
          activity.textContent = `Moderator on ${notice.agent}: ${notice.passed ? 'passes' : `objects (${notice.reason})`}`;
          break;
        case 'retry':
          activity.textContent = `${notice.what} failed (${notice.reason}); retry ${notice.attempt}`;
          break;
        default:
          break;
      }
    });
    source.addEventListener('log-damaged', (message) => {
      const data = JSON.parse(message.data);
      activity.textContent = data.message;
      activity.classList.add('error');
    });
    source.addEventListener('worker-failed', (message) => {
      const data = JSON.parse(message.data);
      activity.textContent = `The debate could not start: ${data.message}`;
      activity.classList.add('error');
    });
  };
  follow();
  // After Resume, the stream reopens once the run goes on (its worker takes a moment to start).
  const followWhenResumed = async () => {
    for (let tries = 0; tries < 120; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const response = await fetch(`/api/runs/${encodeURIComponent(runId)}`).catch(() => null);
      if (!response?.ok) continue;
      const run = await response.json();
      if (run.live || (run.events.at(-1)?.seq ?? -1) > lastSeq) {
        if (source.readyState === EventSource.CLOSED) follow();
        return;
      }
    }
  };

  root.addEventListener('click', async (event) => {
    const button = event.target.closest('button');
    if (!button) return;
    const status = document.getElementById('control-message');
    if (button.dataset.action) {
      button.disabled = true;
      try {
        const result = await post(`/api/runs/${encodeURIComponent(runId)}/${button.dataset.action}`);
        status.textContent = result.message;
        if (button.dataset.action === 'resume') followWhenResumed();
      } catch (error) {
        status.textContent = error.message;
        button.disabled = false;
      }
    }
    if (button.dataset.vote) {
      const message = document.getElementById('vote-message');
      try {
        const result = await post(`/api/runs/${encodeURIComponent(runId)}/votes`, {
          round: Number(button.dataset.round),
          choice: button.dataset.vote,
          voter: voterId(),
        });
        message.textContent = result.message;
        // A finished run's stream has closed: opened again, it brings the scoreboard with the vote.
        if (source.readyState === EventSource.CLOSED) follow();
      } catch (error) {
        message.textContent = error.message;
      }
    }
  });
}

function refreshRuns(body) {
  setInterval(async () => {
    const response = await fetch(`${body.dataset.refresh}${location.search}`).catch(() => null);
    if (response?.ok) body.innerHTML = await response.text();
  }, 3000);
}

function filterScenarios(form) {
  const format = form.querySelector('#format');
  const scenario = form.querySelector('#scenario');
  const update = () => {
    for (const option of scenario.options) {
      if (option.dataset.format) option.hidden = option.dataset.format !== format.value;
    }
    if (scenario.selectedOptions[0]?.hidden) scenario.value = '';
  };
  format.addEventListener('change', update);
  update();
}

// A format with two sides offers a model for each; the labels name its sides.
function sideModels(form) {
  const format = form.querySelector('#format');
  const fieldset = form.querySelector('#side-models');
  if (!fieldset) return;
  const update = () => {
    const sides = format.selectedOptions[0]?.dataset ?? {};
    fieldset.hidden = !sides.first;
    for (const which of ['first', 'second']) {
      const label = form.querySelector(`#model_${which}_label`);
      if (label) label.textContent = sides[which] ?? '';
      if (!sides.first) form.querySelector(`#model_${which}`).value = '';
    }
  };
  format.addEventListener('change', update);
  update();
}

// The blind arena's page is static: following the run would bring the names back.
const run = document.getElementById('run');
if (run && !run.dataset.blind) followRun(run);
const runs = document.getElementById('runs-body');
if (runs) refreshRuns(runs);
const form = document.getElementById('new-run');
if (form) {
  filterScenarios(form);
  sideModels(form);
}
